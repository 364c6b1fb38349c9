import { describe, expect, it } from 'vitest';
import { searchSearchParams } from './search.api';
import { filtersOf, readSearchState, searchErrors, writeSearchState } from './search-state';

const read = (query: string) => readSearchState(new URLSearchParams(query));

describe('the results page’s address', () => {
  it('reads every filter and writes back only what differs from the defaults', () => {
    const query =
      'q=Etat&type=file&format=pdf&from=2026-01-01&to=2026-03-31&folder_id=12&scope=all&sort=date&page=3&per_page=50';
    const state = read(query);
    expect(state).toEqual({
      q: 'Etat',
      type: 'file',
      format: 'pdf',
      from: '2026-01-01',
      to: '2026-03-31',
      folderId: 12,
      everywhere: true,
      sort: 'date',
      page: 3,
      perPage: 50,
    });
    expect(writeSearchState(state).toString()).toBe(query);
    expect(writeSearchState(read('q=Etat')).toString()).toBe('q=Etat');
  });

  it('falls back to the defaults for anything it cannot read', () => {
    expect(read('q=Etat&type=user&format=p.d.f&folder_id=-3&sort=name&page=0&per_page=7')).toMatchObject({
      type: '',
      format: '',
      folderId: undefined,
      sort: 'relevance',
      page: 1,
      perPage: 20,
    });
  });

  it('sends the folder unless "Nur in diesem Ordner" is off, and a file type only for documents', () => {
    expect(filtersOf(read('q=Etat&folder_id=12&format=pdf'))).toEqual({
      q: 'Etat',
      format: 'pdf',
      folderId: 12,
      sort: 'relevance',
    });
    expect(filtersOf(read('q=Etat&folder_id=12&scope=all&type=event&format=pdf'))).toEqual({
      q: 'Etat',
      type: 'event',
      sort: 'relevance',
    });
    expect(
      searchSearchParams(filtersOf(read('q=Etat  plan&type=file&from=2026-01-01')), {
        page: 2,
        perPage: 20,
      }).toString(),
    ).toBe('q=Etat+plan&type=file&from=2026-01-01&sort=relevance&page=2&per_page=20');
  });

  it('does not send what the server would refuse, and says why in German', () => {
    expect(searchErrors(read('q=a'))).toEqual({ q: 'Bitte mindestens 2 Zeichen eingeben.' });
    expect(searchErrors(read(`q=${'x'.repeat(201)}`))).toEqual({
      q: 'Der Suchbegriff darf höchstens 200 Zeichen lang sein.',
    });
    expect(searchErrors(read('q=Etat&from=2026-03-01&to=2026-02-01'))).toEqual({
      to: 'Das Ende des Zeitraums darf nicht vor dem Anfang liegen.',
    });
    expect(searchErrors(read('q=Etat&from=2026-02-01&to=2026-02-01'))).toBeNull();
  });
});
