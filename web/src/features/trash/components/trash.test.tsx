import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TRASH_MESSAGES, type TrashItem, type TrashListResponse } from '@gremienportal/contracts/trash';
import { json, mockApi, type MockHandler, type RecordedRequest } from '../../../testing/fetch-mock';
import { adminUser, signIn } from '../../../testing/factories';
import { onDesktop } from '../../../testing/media';
import { renderApp } from '../../../testing/render';
import { trashSearchParams } from '../trash.api';

function item(overrides: Partial<TrashItem> = {}): TrashItem {
  return {
    id: 1,
    type: 'folder',
    object_id: 40,
    title: 'Archiv 2025',
    former_path: '/Aufsichtsrat/Archiv 2025',
    former_folder_id: 2,
    needs_target: false,
    deleted_at: '2026-11-21T13:30:00.000Z',
    deleted_by: { id: 7, label: 'Gesa Schäfer <gs@example.org>' },
    size_bytes: 2_621_440,
    files: 3,
    folders: 3,
    expires_at: '2026-12-21T13:30:00.000Z',
    ...overrides,
  };
}

const FILE_ITEM = item({
  id: 2,
  type: 'file',
  object_id: 31,
  title: 'Protokoll März.pdf',
  former_path: '/Aufsichtsrat/Sitzungen',
  needs_target: true,
  files: 1,
  folders: 0,
});

function listing(data: TrashItem[], meta: Partial<TrashListResponse['meta']> = {}): TrashListResponse {
  return {
    data,
    meta: {
      total: data.length,
      page: 1,
      per_page: 10,
      all: data.length,
      deleters: [
        { id: 7, label: 'Gesa Schäfer <gs@example.org>' },
        { id: 1, label: 'Portal Administrator <admin@example.org>' },
      ],
      may_purge: false,
      ...meta,
    },
  };
}

const listRequests = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.method === 'GET' && r.url.startsWith('/api/v1/trash?'));

async function openTrash(routes: Record<string, MockHandler | Response> = {}, path = '/trash') {
  onDesktop();
  signIn(adminUser(), 'admin-token');
  const api = mockApi({ 'GET /api/v1/trash': json(200, listing([item(), FILE_ITEM])), ...routes });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Papierkorb', level: 1 });
  return { ...app, ...api };
}

const rowOf = async (title: string) => {
  const table = await screen.findByRole('table', { name: 'Einträge im Papierkorb' });
  const cell = await within(table).findByText(title);
  return cell.closest('tr')!;
};

describe('trashSearchParams', () => {
  it('writes only the filters that are set', () => {
    expect(trashSearchParams({}).toString()).toBe('');
    expect(
      trashSearchParams(
        { type: 'folder', deletedBy: 7, from: '2026-11-01', to: '2026-11-21' },
        { page: 2, perPage: 25 },
      ).toString(),
    ).toBe('type=folder&deleted_by=7&from=2026-11-01&to=2026-11-21&page=2&per_page=25');
  });
});

describe('/trash: the Papierkorb page', () => {
  it('lists the entries with type, former place, who, when, size and content', async () => {
    const { requests } = await openTrash();
    const row = await rowOf('Archiv 2025');
    expect(row).toHaveTextContent('Ordner');
    expect(row).toHaveTextContent('/Aufsichtsrat/Archiv 2025');
    expect(row).toHaveTextContent('Gesa Schäfer');
    expect(row).toHaveTextContent('21.11.2026, 14:30');
    expect(row).toHaveTextContent('endgültig ab 21.12.2026');
    expect(row).toHaveTextContent('2,50 MB');
    expect(row).toHaveTextContent('3 Dateien, 2 Unterordner');
    expect(screen.getByText('2 Einträge')).toBeInTheDocument();
    expect(screen.getByText(/Einträge werden nach 30 Tagen endgültig gelöscht/)).toBeInTheDocument();
    const [first] = listRequests(requests);
    expect(first!.url).toBe('/api/v1/trash?page=1&per_page=10');
    expect(first!.headers.get('Authorization')).toBe('Bearer admin-token');
    // Admins who are no Super-Admin neither purge nor empty.
    expect(screen.queryByRole('button', { name: /endgültig löschen/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Papierkorb leeren' })).not.toBeInTheDocument();
  });

  it('filters by type and by who deleted it, and shows the filtered empty text', async () => {
    const { requests, user } = await openTrash({
      'GET /api/v1/trash': (request) =>
        json(200, request.url.includes('type=') ? listing([], { all: 2 }) : listing([item(), FILE_ITEM])),
    });
    await rowOf('Archiv 2025');
    await user.click(screen.getByRole('combobox', { name: 'Typ' }));
    await user.click(await screen.findByRole('option', { name: 'Events' }));
    await waitFor(() =>
      expect(listRequests(requests).at(-1)!.url).toBe('/api/v1/trash?type=event&page=1&per_page=10'),
    );
    expect(await screen.findByText(TRASH_MESSAGES.filteredEmpty)).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Gelöscht von' }));
    await user.click(await screen.findByRole('option', { name: 'Gesa Schäfer <gs@example.org>' }));
    await waitFor(() =>
      expect(listRequests(requests).at(-1)!.url).toBe(
        '/api/v1/trash?type=event&deleted_by=7&page=1&per_page=10',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Filter zurücksetzen' }));
    await waitFor(() => expect(listRequests(requests).at(-1)!.url).toBe('/api/v1/trash?page=1&per_page=10'));
  });

  it('reads the filters from the address', async () => {
    const { requests } = await openTrash({}, '/trash?type=file&from=2026-11-01&to=2026-11-21');
    await waitFor(() =>
      expect(listRequests(requests)[0]!.url).toBe(
        '/api/v1/trash?type=file&from=2026-11-01&to=2026-11-21&page=1&per_page=10',
      ),
    );
    expect(screen.getByRole('textbox', { name: 'Gelöscht ab' })).toHaveValue('01.11.2026');
  });

  it('shows the empty text when nothing was deleted', async () => {
    await openTrash({ 'GET /api/v1/trash': json(200, listing([])) });
    expect(await screen.findByText(TRASH_MESSAGES.empty)).toBeInTheDocument();
  });

  it('restores an entry whose place still exists at once and offers the way to it', async () => {
    const { user, requests } = await openTrash({
      'POST /api/v1/trash/folder/40/restore': json(200, {
        data: {
          type: 'folder',
          id: 40,
          title: 'Archiv 2025 (wiederhergestellt)',
          folder_id: 2,
          renamed: true,
        },
      }),
    });
    const row = await rowOf('Archiv 2025');
    await user.click(within(row).getByRole('button', { name: '„Archiv 2025“ wiederherstellen' }));

    expect(
      await screen.findByText(
        /Am früheren Ort gab es den Namen schon, daher wurde „\(wiederhergestellt\)“ angehängt/,
      ),
    ).toBeInTheDocument();
    const post = requests.find((r) => r.method === 'POST')!;
    expect(post.url).toBe('/api/v1/trash/folder/40/restore');
    expect(post.body).toEqual({});
    expect(screen.getByRole('link', { name: 'Im Explorer öffnen' })).toHaveAttribute(
      'href',
      '/files?folder=40',
    );
    await waitFor(() => expect(listRequests(requests).length).toBeGreaterThan(1));
  });

  it('asks for a target folder when the former one is gone', async () => {
    const { user, requests } = await openTrash({
      'GET /api/v1/file-breadcrumbs': json(200, {
        data: [
          { id: 2, breadcrumb: '/Aufsichtsrat' },
          { id: 9, breadcrumb: '/Allgemein/Ablage' },
        ],
      }),
      'POST /api/v1/trash/file/31/restore': json(200, {
        data: { type: 'file', id: 31, title: 'Protokoll März', folder_id: 9, renamed: false },
      }),
    });
    const row = await rowOf('Protokoll März.pdf');
    await user.click(within(row).getByRole('button', { name: '„Protokoll März.pdf“ wiederherstellen' }));

    const dialog = await screen.findByRole('dialog', { name: 'Zielordner wählen' });
    expect(dialog).toHaveTextContent(TRASH_MESSAGES.targetRequired);
    await user.click(within(dialog).getByRole('button', { name: 'Wiederherstellen' }));
    expect(within(dialog).getByText('Bitte einen Zielordner wählen.')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);

    await user.click(within(dialog).getByRole('combobox', { name: /Wiederherstellen in/ }));
    await user.click(await screen.findByRole('option', { name: '/Allgemein/Ablage' }));
    await user.click(within(dialog).getByRole('button', { name: 'Wiederherstellen' }));

    expect(
      await screen.findByText('Die Datei „Protokoll März“ wurde wiederhergestellt.'),
    ).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')!.body).toEqual({ folder_id: 9 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Im Explorer öffnen' })).toHaveAttribute(
      'href',
      '/files?folder=9',
    );
  });

  it('says so and reloads when someone else was faster (409)', async () => {
    const { user, requests } = await openTrash({
      'POST /api/v1/trash/folder/40/restore': json(409, { message: TRASH_MESSAGES.gone }),
    });
    const before = listRequests(requests).length;
    await user.click(within(await rowOf('Archiv 2025')).getByRole('button', { name: /wiederherstellen/ }));
    expect(await screen.findByText(TRASH_MESSAGES.gone)).toBeInTheDocument();
    await waitFor(() => expect(listRequests(requests).length).toBeGreaterThan(before));
  });

  it('lets Super-Admins purge one entry and empty the Papierkorb, naming what goes', async () => {
    const { user, requests } = await openTrash({
      'GET /api/v1/trash': json(200, listing([item(), FILE_ITEM], { all: 12, total: 2, may_purge: true })),
      'DELETE /api/v1/trash/folder/40': new Response(null, { status: 204 }),
      'DELETE /api/v1/trash': json(200, { data: { removed: 12 } }),
    });
    const row = await rowOf('Archiv 2025');
    await user.click(within(row).getByRole('button', { name: '„Archiv 2025“ endgültig löschen' }));
    let dialog = await screen.findByRole('dialog', { name: 'Endgültig löschen' });
    expect(dialog).toHaveTextContent(
      'Der Ordner „Archiv 2025“ (3 Dateien, 2 Unterordner) wird endgültig gelöscht.',
    );
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    expect(await screen.findByText(`${TRASH_MESSAGES.purged}: „Archiv 2025“`)).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE' && r.url === '/api/v1/trash/folder/40')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Papierkorb leeren' }));
    dialog = await screen.findByRole('dialog', { name: 'Papierkorb leeren' });
    expect(dialog).toHaveTextContent('Alle 12 Einträge werden endgültig gelöscht.');
    await user.click(within(dialog).getByRole('button', { name: 'Papierkorb leeren' }));
    expect(await screen.findByText(TRASH_MESSAGES.emptied)).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE' && r.url === '/api/v1/trash')).toBe(true);
  });
});
