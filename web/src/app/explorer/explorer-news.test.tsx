import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { StoredFile, TreeNode } from '@gremienportal/contracts/files';
import type { Folder } from '@gremienportal/contracts/folders';
import type { News } from '@gremienportal/contracts/news';
import { NEWS_MESSAGES } from '@gremienportal/contracts/news-messages';
import { makeMeeting } from '../../features/meetings/components/meeting-fixtures';
import { umlaufMotion } from '../../features/resolutions/components/motion-fixtures';
import { json, mockApi, type MockHandler, type MockReply } from '../../testing/fetch-mock';
import { signIn, vertreterUser } from '../../testing/factories';
import { renderApp } from '../../testing/render';

const node = (id: number, breadcrumb: string, newCount: number, children: TreeNode[] = []): TreeNode => ({
  id,
  title: breadcrumb === '/' ? '/' : breadcrumb.split('/').pop()!,
  breadcrumb,
  roles: ['Vertreter'],
  new_count: newCount,
  archived: false,
  children,
  files: [],
});

const TREE = node(1, '/', 4, [node(3, '/Mitgliedervertreter', 3), node(4, '/Allgemein', 1)]);

const file = (id: number, title: string, overrides: Partial<StoredFile> = {}): StoredFile => ({
  type: 'file',
  id,
  title,
  format: 'pdf',
  date: '2026-11-20T10:00:00.000Z',
  external: `download-key-${id}-abcdefgh`,
  mime_type: 'application/pdf',
  roles: ['Vertreter'],
  roles_string: 'Vertreter',
  folder: { id: 3, title: 'Mitgliedervertreter', breadcrumb: '/Mitgliedervertreter' },
  folder_id: 3,
  folder_name: 'Mitgliedervertreter',
  size: 0.01,
  size_bytes: 1000,
  updated_at: '2026-11-20T10:00:00.000Z',
  archived: false,
  new: false,
  acknowledgement_required: false,
  acknowledgement_due: null,
  ...overrides,
});

const folder = (id: number, title: string, newCount: number): Folder => ({
  type: 'folder',
  id,
  title,
  format: 'folder',
  date: '2026-11-20T10:00:00.000Z',
  roles: ['Vertreter'],
  roles_string: 'Vertreter',
  breadcrumb: `/${title}`,
  parent: { id: 1, breadcrumb: '/', archived: false },
  parent_id: 1,
  children: 0,
  files: newCount,
  updated_at: '2026-11-20T10:00:00.000Z',
  new_count: newCount,
  archived: false,
});

const EMPTY_NEWS: News = { files: [], files_total: 0, acknowledgements: [], events: [] };

function explorerApi(news: News, overrides: Record<string, MockHandler | MockReply> = {}) {
  return mockApi({
    'GET /api/v1/tree': json(200, { data: TREE }),
    'GET /api/v1/root/files': json(200, {
      data: [
        folder(3, 'Mitgliedervertreter', 3),
        folder(4, 'Allgemein', 1),
        file(40, 'Satzung', { new: true }),
      ],
    }),
    'GET /api/v1/folders/3/files': json(200, { data: [file(41, 'Einladung', { new: true })] }),
    'GET /api/v1/news': json(200, { data: news }),
    ...overrides,
  });
}

async function openExplorer(path: string) {
  const app = renderApp(path);
  await screen.findByRole('table', { name: /^Inhalt von/ }, { timeout: 8000 });
  return app;
}

describe('Neu markers in the explorer', () => {
  // First in this file on purpose: a lazily loaded bar would appear here only after the grid (the
  // rows moving down under a pointer about to click one); once some earlier test had loaded the
  // lazy chunk, the check could no longer tell.
  it('shows a folder’s new-documents bar in the same render as its grid, so no row moves', async () => {
    signIn(vertreterUser());
    explorerApi(EMPTY_NEWS);
    await openExplorer('/files?folder=3');
    expect(screen.getByText('3 neue Dokumente in diesem Ordner')).toBeInTheDocument();
  });

  it('shows "Neu" on new documents and how many new ones each folder holds, in tree and grid', async () => {
    signIn(vertreterUser());
    explorerApi(EMPTY_NEWS);
    await openExplorer('/files');
    const grid = screen.getByRole('table', { name: /^Inhalt von/ });
    const satzung = within(grid).getByRole('row', { name: /Satzung/ });
    expect(within(satzung).getByText('Neu')).toBeInTheDocument();
    expect(
      within(within(grid).getByRole('row', { name: /Mitgliedervertreter/ })).getByText('3 neue Dokumente'),
    ).toBeInTheDocument();
    expect(
      within(within(grid).getByRole('row', { name: /Allgemein/ })).getByText('1 neues Dokument'),
    ).toBeInTheDocument();
    const tree = screen.getByRole('tree', { name: 'Ordner' });
    // The name stays the folder's; the count is its description.
    expect(within(tree).getByRole('treeitem', { name: 'Mitgliedervertreter' })).toHaveAccessibleDescription(
      '3 neue Dokumente',
    );
    expect(within(tree).getByRole('treeitem', { name: 'Allgemein' })).toHaveAccessibleDescription(
      '1 neues Dokument',
    );
    // Nothing new for the member elsewhere: no "Neu für Sie".
    expect(screen.queryByRole('heading', { name: NEWS_MESSAGES.title })).not.toBeInTheDocument();
  });

  it('marks a folder read with everything below it, and the counts load again', async () => {
    signIn(vertreterUser());
    let treeLoads = 0;
    const api = explorerApi(EMPTY_NEWS, {
      'GET /api/v1/tree': () => {
        treeLoads += 1;
        return json(200, { data: TREE });
      },
      'POST /api/v1/news/read': json(200, { message: NEWS_MESSAGES.markedFolder, marked: 3 }),
    });
    const { user } = await openExplorer('/files?folder=3');
    expect(await screen.findByText('3 neue Dokumente in diesem Ordner')).toBeInTheDocument();
    const loadsBefore = treeLoads;
    await user.click(screen.getByRole('button', { name: NEWS_MESSAGES.markFolderRead }));
    expect(await screen.findByText(NEWS_MESSAGES.markedFolder)).toBeInTheDocument();
    const post = api.requests.find((request) => request.method === 'POST');
    expect(post?.url).toBe('/api/v1/news/read');
    expect(post?.body).toEqual({ folder_id: 3 });
    await waitFor(() => expect(treeLoads).toBeGreaterThan(loadsBefore));
  });

  it('loads the listing again after a new document was downloaded, so its badge goes away', async () => {
    signIn(vertreterUser());
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    let read = false;
    explorerApi(EMPTY_NEWS, {
      'GET /api/v1/folders/3/files': () => json(200, { data: [file(41, 'Einladung', { new: !read })] }),
      'GET /api/v1/files/41': () =>
        json(200, { data: file(41, 'Einladung', { new: !read, acknowledged_at: null }) }),
      'GET /api/v1/download/download-key-41-abcdefgh': () => {
        read = true;
        return new Response('%PDF', { headers: { 'Content-Type': 'application/pdf' } });
      },
    });
    const { user } = await openExplorer('/files?folder=3');
    const grid = screen.getByRole('table', { name: /^Inhalt von/ });
    expect(within(grid).getByText('Neu')).toBeInTheDocument();
    await user.click(within(grid).getByRole('button', { name: 'Aktionen für „Einladung“' }));
    const dialog = await screen.findByRole('dialog', { name: 'Datei ausgewählt' });
    await user.click(within(dialog).getByRole('button', { name: 'Herunterladen' }));
    await waitFor(() => expect(within(grid).queryByText('Neu')).not.toBeInTheDocument());
  });
});

describe('"Neu für Sie" above the explorer', () => {
  const news: News = {
    files: Array.from({ length: 10 }, (_, index) =>
      file(100 + index, `Neues Dokument ${index + 1}`, { new: true }),
    ),
    files_total: 12,
    acknowledgements: [
      file(41, 'Einladung', {
        acknowledgement_required: true,
        acknowledgement_due: '2026-12-01',
        acknowledged_at: null,
      }),
    ],
    events: [
      makeMeeting({
        id: 5,
        title: 'Vertreterversammlung',
        my_attendance: { status: 'zugesagt', comment: '', answered_at: '2026-11-20T10:00:00.000Z' },
      }),
    ],
  };

  it('lists new documents, those waiting for the Kenntnisnahme and the next events', async () => {
    signIn(vertreterUser());
    explorerApi(news, {
      'GET /api/v1/files': json(200, {
        data: [
          ...news.files,
          file(110, 'Neues Dokument 11', { new: true }),
          file(111, 'Neues Dokument 12', { new: true }),
          file(200, 'Alt'),
        ],
      }),
    });
    const { user } = await openExplorer('/');
    const panel = await screen.findByRole('region', { name: NEWS_MESSAGES.title });
    const fresh = within(panel).getByRole('region', { name: '12 neue Dokumente' });
    expect(within(fresh).getAllByRole('listitem')).toHaveLength(10);
    const waiting = within(panel).getByRole('region', { name: NEWS_MESSAGES.pendingAcknowledgements });
    expect(within(waiting).getByRole('link', { name: 'Einladung.pdf' })).toHaveAttribute(
      'href',
      '/files/show/41',
    );
    expect(within(waiting).getByText('bis 01.12.2026')).toBeInTheDocument();
    const events = within(panel).getByRole('region', { name: NEWS_MESSAGES.nextEvents });
    expect(within(events).getByRole('link', { name: 'Vertreterversammlung' })).toHaveAttribute(
      'href',
      '/events/show/5',
    );
    expect(within(events).getByText('Zusage')).toBeInTheDocument();

    await user.click(within(fresh).getByRole('button', { name: 'alle anzeigen (12)' }));
    await waitFor(() => expect(within(fresh).getAllByRole('listitem')).toHaveLength(12));
    expect(within(fresh).queryByText('Alt.pdf')).not.toBeInTheDocument();

    // A document's ⋮ opens the file dialog; closed, it gives focus back to the ⋮ (decision 183).
    const trigger = within(waiting).getByRole('button', { name: 'Aktionen für „Einladung“' });
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Datei ausgewählt' });
    expect(within(dialog).getByText('Einladung.pdf')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(trigger).toHaveFocus());
  });

  it('marks everything read', async () => {
    signIn(vertreterUser());
    const api = explorerApi(news, {
      'POST /api/v1/news/read': json(200, { message: NEWS_MESSAGES.markedAll, marked: 12 }),
    });
    const { user } = await openExplorer('/files');
    const panel = await screen.findByRole('region', { name: NEWS_MESSAGES.title });
    await user.click(within(panel).getByRole('button', { name: NEWS_MESSAGES.markAllRead }));
    expect(await screen.findByText(NEWS_MESSAGES.markedAll)).toBeInTheDocument();
    expect(api.requests.find((request) => request.method === 'POST')?.body).toEqual({});
  });

  it('is not there with a chosen folder, nor when there is nothing', async () => {
    signIn(vertreterUser());
    const api = explorerApi(news);
    await openExplorer('/files?folder=3');
    expect(screen.queryByRole('region', { name: NEWS_MESSAGES.title })).not.toBeInTheDocument();
    expect(api.requests.some((request) => request.url === '/api/v1/news')).toBe(false);
  });

  it('shows nothing when all three lists are empty', async () => {
    signIn(vertreterUser());
    const api = explorerApi(EMPTY_NEWS);
    await openExplorer('/');
    await waitFor(() => expect(api.requests.some((request) => request.url === '/api/v1/news')).toBe(true));
    expect(screen.queryByRole('region', { name: NEWS_MESSAGES.title })).not.toBeInTheDocument();
  });

  it('asks for the member’s vote in each running vote, also when nothing else is new', async () => {
    signIn(vertreterUser());
    const api = explorerApi(EMPTY_NEWS, {
      'GET /api/v1/motions': json(200, {
        data: [umlaufMotion({ id: 21, title: 'Dachsanierung', deadline: '2026-12-14T17:00:00.000Z' })],
      }),
    });
    await openExplorer('/');
    const panel = await screen.findByRole('region', { name: NEWS_MESSAGES.title });
    const votes = within(panel).getByRole('region', { name: 'Ihre Stimme wird erbeten' });
    expect(within(votes).getByRole('link', { name: 'Dachsanierung' })).toHaveAttribute(
      'href',
      '/beschluesse/vorlagen/21',
    );
    expect(votes).toHaveTextContent('Aufsichtsrat · Frist: 14.12.2026, 18:00 Uhr');
    expect(api.requests.some((request) => request.url === '/api/v1/motions?pending=1')).toBe(true);
  });
});
