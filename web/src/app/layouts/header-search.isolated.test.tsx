import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SearchHit, SuggestResponse } from '@gremienportal/contracts/search';
import { json, mockApi, type RecordedRequest } from '../../testing/fetch-mock';
import { signIn } from '../../testing/factories';
import { renderApp } from '../../testing/render';

// Pages are stand-ins here: these tests are about the header's search.
vi.mock('../routes/files', () => ({ default: () => <h1>Seite files</h1> }));
vi.mock('../routes/file-show', () => ({ default: () => <h1>Seite file-show</h1> }));
vi.mock('../routes/events', () => ({ default: () => <h1>Seite events</h1> }));
vi.mock('../routes/event-show', () => ({ default: () => <h1>Seite event-show</h1> }));
vi.mock('../routes/account', () => ({ default: () => <h1>Seite account</h1> }));
vi.mock('../routes/search', () => ({ default: () => <h1>Seite search</h1> }));

const HITS: SuggestResponse['data'] = [
  {
    type: 'file',
    id: 31,
    title: 'Protokoll März',
    highlight: [[0, 4]],
    breadcrumb: '/Aufsichtsrat/Sitzungen 2026',
    folder_id: 10,
    format: 'pdf',
  },
  {
    type: 'folder',
    id: 12,
    title: 'Protokolle',
    highlight: [[0, 4]],
    breadcrumb: '/Mitgliedervertreter/Protokolle',
    folder_id: 5,
    format: null,
  },
  {
    type: 'event',
    id: 4,
    title: 'Vertreterversammlung',
    highlight: [],
    breadcrumb: null,
    folder_id: null,
    format: null,
  },
];

const suggestRequests = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.url.startsWith('/api/v1/search/suggest'));

/** A document whose title does not hold the query, but its text does. */
const TEXT_HIT: SearchHit = {
  type: 'file',
  id: 77,
  title: 'Bericht des Vorstands',
  highlight: [],
  snippet: { text: '… die Rücklage für Zzz-Anlagen steigt …', ranges: [[18, 21]] },
  breadcrumb: '/Aufsichtsrat/Berichte',
  folder_id: 10,
  format: 'pdf',
  date: '2026-11-20T10:00:00.000Z',
  place: null,
  searchable: true,
};

async function openApp(path = '/events', hits = HITS, inText: SearchHit[] = []) {
  signIn();
  const api = mockApi({
    'GET /api/v1/search/suggest': json(200, { data: hits }),
    'GET /api/v1/search': json(200, {
      data: inText,
      meta: { total: inText.length, page: 1, per_page: 8 },
    }),
  });
  const app = renderApp(path);
  await screen.findByRole('heading', { level: 1 });
  return { ...app, ...api };
}

/** The field once loaded: `/` (or a click) asked for it. */
const field = () => screen.findByRole('combobox', { name: 'Suchen' });

describe('the header search', () => {
  it('opens and focuses the field with "/", but not while typing in another field', async () => {
    const { user } = await openApp('/account');
    const other = document.createElement('input');
    document.body.append(other);
    other.focus();
    await user.keyboard('/');
    expect(other).toHaveValue('/');
    expect(screen.queryByRole('combobox', { name: 'Suchen' })).not.toBeInTheDocument();

    other.blur();
    other.remove();
    await user.keyboard('/');
    expect(await field()).toHaveFocus();
    expect(await field()).toHaveValue('');
  });

  it('opens with Ctrl+K, and the button stands in until then', async () => {
    const { user } = await openApp();
    const button = screen.getByRole('button', { name: 'Suchen' });
    expect(button).toHaveAttribute('aria-keyshortcuts', '/ Control+K');
    await user.keyboard('{Control>}k{/Control}');
    expect(await field()).toHaveFocus();
  });

  it('asks the server once the typing pauses, and not for a single letter', async () => {
    const { user, requests } = await openApp();
    await user.click(screen.getByRole('button', { name: 'Suchen' }));
    const input = await field();
    await user.type(input, 'P');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(suggestRequests(requests)).toHaveLength(0);

    // Three keys at once, no pause between them (use-debounced.test.ts times the pause itself).
    await userEvent.setup({ delay: null }).type(input, 'rot');
    expect(suggestRequests(requests)).toHaveLength(0);
    await waitFor(() => expect(suggestRequests(requests)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(suggestRequests(requests).map((request) => request.url)).toEqual([
      '/api/v1/search/suggest?q=Prot',
    ]);
  });

  it('lists the hits with their kind, folder and the matched part marked', async () => {
    const { user } = await openApp();
    await user.keyboard('/');
    await user.type(await field(), 'Prot');

    const list = await screen.findByRole('listbox', { name: 'Vorschläge' });
    await within(list).findByRole('option', { name: /^Protokoll März/ });
    const options = within(list).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Protokoll MärzDatei · /Aufsichtsrat/Sitzungen 2026',
      'ProtokolleOrdner · /Mitgliedervertreter/Protokolle',
      'VertreterversammlungEvent',
      'Alle Treffer für „Prot“',
    ]);
    expect([...options[0]!.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Prot']);
    expect(options[2]!.querySelector('mark')).toBeNull();
    expect(await field()).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByText('3 Vorschläge')).toBeInTheDocument();
  });

  it('opens the chosen hit with the arrow keys and Enter: a document its page', async () => {
    const { user, router } = await openApp();
    await user.keyboard('/');
    await user.type(await field(), 'Prot');
    await screen.findByRole('option', { name: /^Protokoll März/ });

    await user.keyboard('{ArrowDown}');
    const first = screen.getAllByRole('option')[0]!;
    expect(await field()).toHaveAttribute('aria-activedescendant', first.id);
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Seite file-show' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/files/show/31');
  });

  it('opens a folder in the explorer and an event on its page', async () => {
    const { user, router } = await openApp();
    await user.keyboard('/');
    await user.type(await field(), 'Prot');
    await user.click(await screen.findByRole('option', { name: /^Protokolle/ }));
    await screen.findByRole('heading', { name: 'Seite files' });
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/files?folder=12');

    await user.keyboard('/');
    await user.type(await field(), 'Vert');
    await user.click(await screen.findByRole('option', { name: /^Vertreterversammlung/ }));
    await screen.findByRole('heading', { name: 'Seite event-show' });
    expect(router.state.location.pathname).toBe('/events/show/4');
  });

  it('opens all hits on /search with Enter, kept to the folder open in the explorer', async () => {
    const { user, router } = await openApp('/files?folder=12');
    await user.keyboard('/');
    await user.type(await field(), ' Haushalt  2026{Enter}');
    await screen.findByRole('heading', { name: 'Seite search' });
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/search?q=Haushalt+2026&folder_id=12',
    );
    expect(await field()).toHaveValue('');
  });

  it('closes the list with Escape and clears the field with a second one', async () => {
    const { user } = await openApp();
    await user.keyboard('/');
    const input = await field();
    await user.type(input, 'Prot');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    expect(input).toHaveValue('Prot');
    await user.keyboard('{Escape}');
    expect(input).toHaveValue('');
  });

  it('says when neither a title nor a text matches, and still offers all hits', async () => {
    const { user } = await openApp('/events', []);
    await user.keyboard('/');
    await user.type(await field(), 'Zzz');
    // Shown in the list and read out (a live region).
    const notes = await screen.findAllByText('Nichts gefunden, weder im Titel noch im Text eines Dokuments.');
    expect(notes).toHaveLength(2);
    expect(screen.getByRole('option', { name: 'Alle Treffer für „Zzz“' })).toBeInTheDocument();
  });

  it('shows documents whose text holds the word, with the text around it, and opens one', async () => {
    const { user, router, requests } = await openApp('/events', [], [TEXT_HIT]);
    await user.keyboard('/');
    await user.type(await field(), 'Zzz');
    const group = await screen.findByRole('group', { name: 'Im Text gefunden' });
    const option = within(group).getByRole('option', { name: /Bericht des Vorstands/ });
    expect(option).toHaveTextContent('… die Rücklage für Zzz-Anlagen steigt …');
    expect(screen.getByRole('status')).toHaveTextContent('1 Vorschlag');
    const search = requests.find((request) => request.url.startsWith('/api/v1/search?'));
    expect(new URLSearchParams(search!.url.split('?')[1]).get('type')).toBe('file');
    await user.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/files/show/77'));
  });

  it('opens over the header on small screens, and closes again with its button', async () => {
    const { user } = await openApp();
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query.includes('max-width: 47.99em'),
          media: query,
          addEventListener: () => {},
          removeEventListener: () => {},
        }) as unknown as MediaQueryList,
    );
    await user.click(screen.getByRole('button', { name: 'Suchen' }));
    expect(await field()).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Suche schließen' }));
    await waitFor(() => expect(screen.queryByRole('combobox', { name: 'Suchen' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Suchen' })).toHaveFocus();
  });
});
