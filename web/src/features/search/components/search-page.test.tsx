import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SearchHit, SearchResponse } from '@gremienportal/contracts/search';
import { json, mockApi, type MockHandler, type RecordedRequest } from '../../../testing/fetch-mock';
import { signIn } from '../../../testing/factories';
import { onDesktop } from '../../../testing/media';
import { renderApp } from '../../../testing/render';

const FILE_HIT: SearchHit = {
  type: 'file',
  id: 31,
  title: 'Protokoll März',
  highlight: [[0, 9]],
  snippet: { text: '… der Haushalt wurde im Protokoll festgehalten …', ranges: [[24, 33]] },
  breadcrumb: '/Aufsichtsrat/Sitzungen 2026',
  folder_id: 10,
  format: 'pdf',
  date: '2026-03-12T10:00:00.000Z',
  place: null,
  searchable: true,
};
const SCAN_HIT: SearchHit = {
  ...FILE_HIT,
  id: 32,
  title: 'Protokoll Februar (Scan)',
  snippet: null,
  searchable: false,
};
const FOLDER_HIT: SearchHit = {
  type: 'folder',
  id: 12,
  title: 'Protokolle',
  highlight: [[0, 9]],
  snippet: null,
  breadcrumb: '/Mitgliedervertreter/Protokolle',
  folder_id: 5,
  format: null,
  date: '2026-02-01T09:00:00.000Z',
  place: null,
  searchable: null,
};
const EVENT_HIT: SearchHit = {
  type: 'event',
  id: 4,
  title: 'Vertreterversammlung',
  highlight: [],
  snippet: { text: 'Das Protokoll der letzten Sitzung liegt aus.', ranges: [[4, 13]] },
  breadcrumb: null,
  folder_id: null,
  format: null,
  date: '2026-06-20T16:00:00.000Z',
  place: 'Stadthalle',
  searchable: null,
};

const RESOLUTION_HIT: SearchHit = {
  type: 'resolution',
  id: 7,
  title: 'AR 2026/07 – Kauf des Grundstücks Hauptstraße 1',
  highlight: [],
  snippet: { text: '… Kaufpreis laut Protokoll der Sitzung …', ranges: [[17, 26]] },
  breadcrumb: 'Aufsichtsrat',
  folder_id: null,
  format: null,
  date: '2026-11-21T10:00:00.000Z',
  place: null,
  searchable: null,
};

const answer = (data: SearchHit[], meta: Partial<SearchResponse['meta']> = {}): SearchResponse => ({
  data,
  meta: { total: data.length, page: 1, per_page: 20, ...meta },
});

const searchRequests = (requests: RecordedRequest[]) =>
  requests.filter((request) => request.url.startsWith('/api/v1/search?'));

async function openSearch(
  path: string,
  search: MockHandler | Response,
  routes: Record<string, MockHandler | Response> = {},
) {
  onDesktop();
  signIn();
  const api = mockApi({ 'GET /api/v1/search': search, ...routes });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Suche', level: 1 });
  return { ...app, ...api };
}

const results = () => screen.findByRole('table', { name: 'Suchergebnisse' });
const marks = (element: HTMLElement) => [...element.querySelectorAll('mark')].map((mark) => mark.textContent);

describe('/search', () => {
  it('shows each hit with kind, marked title, place, date and marked snippet', async () => {
    const { requests } = await openSearch(
      '/search?q=Protokoll',
      json(200, answer([FILE_HIT, SCAN_HIT, FOLDER_HIT, EVENT_HIT], { total: 4 })),
    );
    const table = await results();
    expect(screen.getByText('4 Treffer', { selector: 'p' })).toBeInTheDocument();
    expect(searchRequests(requests)[0]!.url).toBe(
      '/api/v1/search?q=Protokoll&sort=relevance&page=1&per_page=20',
    );

    const [file, scan, folder, event] = within(table).getAllByRole('row');
    expect(within(file!).getByText('Datei · PDF-Dokument')).toBeInTheDocument();
    const fileLink = within(file!).getByRole('link', { name: 'Protokoll März' });
    expect(fileLink).toHaveAttribute('href', '/files/show/31');
    expect(marks(fileLink)).toEqual(['Protokoll']);
    expect(file).toHaveTextContent('In /Aufsichtsrat/Sitzungen 2026 · geändert am 12.03.2026, 11:00');
    expect(within(file!).getByText(/der Haushalt wurde im/)).toHaveTextContent(
      '… der Haushalt wurde im Protokoll festgehalten …',
    );
    expect(marks(file!)).toEqual(['Protokoll', 'Protokoll']);
    expect(within(scan!).getByText('Inhalt nicht durchsuchbar')).toBeInTheDocument();
    expect(within(file!).queryByText('Inhalt nicht durchsuchbar')).not.toBeInTheDocument();

    expect(within(folder!).getByRole('link', { name: 'Protokolle' })).toHaveAttribute(
      'href',
      '/files?folder=12',
    );
    expect(folder).toHaveTextContent('Ordner');
    expect(within(event!).getByRole('link', { name: 'Vertreterversammlung' })).toHaveAttribute(
      'href',
      '/events/show/4',
    );
    expect(event).toHaveTextContent('20.06.2026, 18:00 · Stadthalle');
    expect(marks(event!)).toEqual(['Protokoll']);
  });

  it('shows a resolution as "Beschluss" with its committee, leading into the Beschlussbuch', async () => {
    const { requests } = await openSearch(
      '/search?q=Protokoll&type=resolution',
      json(200, answer([RESOLUTION_HIT])),
    );
    const table = await results();
    expect(searchRequests(requests)[0]!.url).toBe(
      '/api/v1/search?q=Protokoll&type=resolution&sort=relevance&page=1&per_page=20',
    );
    expect(screen.getByText('1 Beschluss', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Art' })).toHaveValue('Beschlüsse');
    const [row] = within(table).getAllByRole('row');
    expect(within(row!).getByText('Beschluss')).toBeInTheDocument();
    expect(
      within(row!).getByRole('link', { name: 'AR 2026/07 – Kauf des Grundstücks Hauptstraße 1' }),
    ).toHaveAttribute('href', '/beschluesse/7');
    expect(row).toHaveTextContent('Aufsichtsrat · festgestellt am 21.11.2026, 11:00');
    expect(marks(row!)).toEqual(['Protokoll']);
  });

  it('reads the filters from the address and sends them', async () => {
    const { requests } = await openSearch(
      '/search?q=Etat&type=file&format=pdf&from=2026-01-01&to=2026-03-31&folder_id=12&sort=date&page=2&per_page=50',
      json(200, answer([FILE_HIT], { total: 51, page: 2, per_page: 50 })),
      { 'GET /api/v1/folders/12': json(200, { data: { id: 12, breadcrumb: '/Aufsichtsrat/2026' } }) },
    );
    await results();
    expect(searchRequests(requests)[0]!.url).toBe(
      '/api/v1/search?q=Etat&type=file&format=pdf&from=2026-01-01&to=2026-03-31&folder_id=12&sort=date&page=2&per_page=50',
    );
    expect(screen.getByRole('textbox', { name: 'Suchbegriff' })).toHaveValue('Etat');
    expect(screen.getByRole('combobox', { name: 'Art' })).toHaveValue('Dateien');
    expect(screen.getByRole('combobox', { name: 'Sortieren nach' })).toHaveValue('Datum (neueste zuerst)');
    // With a kind chosen, the count names it.
    expect(screen.getByText('51 Dateien', { selector: 'p' })).toBeInTheDocument();
    expect(
      await screen.findByRole('checkbox', { name: 'Nur in diesem Ordner (/Aufsichtsrat/2026)' }),
    ).toBeChecked();
  });

  it('searches everywhere when "Nur in diesem Ordner" is switched off, and keeps it in the address', async () => {
    const { requests, user, router } = await openSearch(
      '/search?q=Etat&folder_id=12',
      json(200, answer([FILE_HIT])),
    );
    await results();
    await user.click(screen.getByRole('checkbox', { name: /Nur in diesem Ordner/ }));
    await waitFor(() =>
      expect(searchRequests(requests).at(-1)!.url).toBe(
        '/api/v1/search?q=Etat&sort=relevance&page=1&per_page=20',
      ),
    );
    expect(router.state.location.search).toBe('?q=Etat&folder_id=12&scope=all');
    expect(screen.getByRole('checkbox', { name: /Nur in diesem Ordner/ })).not.toBeChecked();
  });

  it('changes the kind, the order and the page, each in the address', async () => {
    const { requests, user, router } = await openSearch('/search?q=Protokoll', (request) =>
      json(
        200,
        answer([request.url.includes('page=2') ? EVENT_HIT : FILE_HIT], {
          total: 25,
          page: request.url.includes('page=2') ? 2 : 1,
        }),
      ),
    );
    await results();
    expect(screen.getByText(/^1(–\d+)? von 25 Treffern$/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '2' }));
    expect(await screen.findByRole('link', { name: 'Vertreterversammlung' })).toBeInTheDocument();
    expect(searchRequests(requests).at(-1)!.url).toBe(
      '/api/v1/search?q=Protokoll&sort=relevance&page=2&per_page=20',
    );
    expect(router.state.location.search).toBe('?q=Protokoll&page=2');

    await user.click(screen.getByRole('combobox', { name: 'Art' }));
    await user.click(await screen.findByRole('option', { name: 'Events' }));
    await waitFor(() =>
      expect(searchRequests(requests).at(-1)!.url).toBe(
        '/api/v1/search?q=Protokoll&type=event&sort=relevance&page=1&per_page=20',
      ),
    );
    expect(screen.getByRole('combobox', { name: 'Dateityp' })).toBeDisabled();

    await user.click(screen.getByRole('combobox', { name: 'Sortieren nach' }));
    await user.click(await screen.findByRole('option', { name: 'Datum (neueste zuerst)' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=Protokoll&type=event&sort=date'));
  });

  it('starts a new search from its field', async () => {
    const { requests, user, router } = await openSearch('/search', json(200, answer([FILE_HIT])));
    expect(screen.getByText(/Geben Sie einen Suchbegriff ein/)).toBeInTheDocument();
    expect(searchRequests(requests)).toHaveLength(0);

    await user.type(screen.getByRole('textbox', { name: 'Suchbegriff' }), 'Haushalt{Enter}');
    await results();
    expect(router.state.location.search).toBe('?q=Haushalt');
    expect(searchRequests(requests)[0]!.url).toBe(
      '/api/v1/search?q=Haushalt&sort=relevance&page=1&per_page=20',
    );
  });

  it('says when nothing was found and suggests checking the spelling', async () => {
    await openSearch('/search?q=Protokol&type=file', json(200, answer([])));
    expect(await screen.findByText('Nichts gefunden für „Protokol“')).toBeInTheDocument();
    expect(screen.getByText(/Bitte prüfen Sie die Schreibweise/)).toBeInTheDocument();
    expect(screen.getByText('0 Dateien', { selector: 'p' })).toBeInTheDocument();
  });

  it('does not ask the server for a single letter, and says why', async () => {
    const { requests } = await openSearch('/search?q=a', json(200, answer([FILE_HIT])));
    expect(await screen.findByText('Bitte mindestens 2 Zeichen eingeben.')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(searchRequests(requests)).toHaveLength(0);
  });

  it('shows the server’s German message when it refuses the search (422)', async () => {
    await openSearch(
      '/search?q=Etat&format=pdf',
      json(422, {
        message: 'Bitte einen gültigen Dateityp wählen.',
        errors: { format: ['Bitte einen gültigen Dateityp wählen.'] },
      }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Bitte einen gültigen Dateityp wählen.');
    expect(within(alert).queryByRole('button', { name: 'Erneut versuchen' })).not.toBeInTheDocument();
  });

  it('shows that it is searching, and offers to try again after a failure', async () => {
    let fail = true;
    let release: () => void = () => undefined;
    const { user } = await openSearch('/search?q=Etat', async () => {
      if (fail) return json(500, { message: 'Serverfehler.' });
      await new Promise<void>((resolve) => (release = resolve));
      return json(200, answer([FILE_HIT]));
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Die Suche ist fehlgeschlagen.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Suche läuft …')).toBeInTheDocument();
    release();
    expect(await results()).toBeInTheDocument();
  });
});
