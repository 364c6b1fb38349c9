import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TreeNode } from '@gremienportal/contracts/files';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { TWO_FACTOR_MESSAGES } from '@gremienportal/contracts/two-factor-rules';
import { json, mockApi, type MockHandler, type MockReply } from '../../testing/fetch-mock';
import { adminUser, makeStoredFile, makeUser, signIn, vertreterUser } from '../../testing/factories';
import { renderApp } from '../../testing/render';

const node = (id: number, breadcrumb: string, roles: string[], children: TreeNode[] = []): TreeNode => ({
  id,
  title: breadcrumb === '/' ? '/' : breadcrumb.split('/').pop()!,
  breadcrumb,
  roles,
  new_count: 0,
  archived: false,
  children,
  files: [],
});

const TREE = node(
  1,
  '/',
  [],
  [
    node(4, '/Allgemein', ['Aufsichtsrat', 'Vertreter']),
    node(2, '/Aufsichtsrat', ['Aufsichtsrat'], [node(6, '/Aufsichtsrat/Sitzungen', ['Aufsichtsrat'])]),
    node(3, '/Mitgliedervertreter', ['Vertreter']),
  ],
);

const SETTINGS = {
  imprint_url: 'https://example.org/impressum',
  privacy_url: 'https://example.org/datenschutz',
  contacts: { Aufsichtsrat: 'ar@example.org', Vertreter: 'vv@example.org' },
};

const folderDetail = (id: number, breadcrumb: string, parentId: number) => ({
  type: 'folder',
  id,
  title: breadcrumb.split('/').pop(),
  format: 'folder',
  date: '2026-11-21T10:00:00.000Z',
  roles: ['Aufsichtsrat'],
  roles_string: 'Aufsichtsrat',
  breadcrumb,
  parent: { id: parentId, breadcrumb: '/Aufsichtsrat' },
  parent_id: parentId,
  children: 1,
  files: 2,
  updated_at: '2026-11-21T10:00:00.000Z',
  contents: { folders: 3, files: 7 },
});

function explorerApi(overrides: Record<string, MockHandler | MockReply> = {}) {
  return mockApi({
    'GET /api/v1/tree': json(200, { data: TREE }),
    'GET /api/v1/root/files': json(200, { data: [] }),
    'GET /api/v1/folders/2/files': json(200, { data: [] }),
    'GET /api/v1/folders/6/files': json(200, { data: [] }),
    'GET /api/v1/folders/4/files': json(200, { data: [] }),
    'GET /api/v1/settings': json(200, { data: SETTINGS }),
    ...overrides,
  });
}

const tree = () => screen.getByRole('navigation', { name: 'Ordnerbaum' });

async function openExplorer(path: string) {
  const app = renderApp(path);
  await screen.findByRole('navigation', { name: 'Ordnerbaum' });
  return app;
}

describe('file explorer', () => {
  it('keeps the active folder in the address: tree clicks, back button and reload', async () => {
    signIn(vertreterUser({ roles: ['Aufsichtsrat'] }));
    explorerApi();
    const { user, router } = await openExplorer('/files?folder=6');

    const path = screen.getByRole('navigation', { name: 'Aktueller Pfad' });
    expect(within(path).getByText('Sitzungen')).toHaveAttribute('aria-current', 'location');
    expect(within(tree()).getByRole('treeitem', { name: 'Sitzungen' })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(screen.getByRole('heading', { name: 'Sitzungen', level: 2 })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /Zurück zum übergeordneten Ordner/ }));
    expect(router.state.location.search).toBe('?folder=2');
    expect(await screen.findByRole('heading', { name: 'Aufsichtsrat', level: 2 })).toBeInTheDocument();

    await user.click(within(tree()).getByRole('treeitem', { name: 'Allgemein' }));
    expect(router.state.location.search).toBe('?folder=4');
    await user.click(within(tree()).getByRole('treeitem', { name: 'Hauptordner' }));
    expect(router.state.location.search).toBe('');
    expect(await screen.findByRole('heading', { name: 'Hauptordner', level: 2 })).toBeInTheDocument();

    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.search).toBe('?folder=4'));
    await waitFor(() =>
      expect(within(tree()).getByRole('treeitem', { name: 'Allgemein' })).toHaveAttribute(
        'aria-current',
        'true',
      ),
    );
  });

  it('shows members no create, edit or delete controls', async () => {
    signIn(vertreterUser({ roles: ['Aufsichtsrat'] }));
    explorerApi();
    await openExplorer('/files?folder=6');
    for (const name of [
      'Neuer Ordner',
      'Ordner bearbeiten',
      'Ordner löschen',
      'Datei hochladen',
      'Amtsperiode erstellen',
    ]) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });

  it("shows the contact of the user's own committee, and both to admins", async () => {
    signIn(vertreterUser({ roles: ['Vertreter'] }));
    explorerApi();
    const first = await openExplorer('/files');
    expect(await screen.findAllByRole('link', { name: 'vv@example.org' })).not.toHaveLength(0);
    expect(screen.queryByRole('link', { name: 'ar@example.org' })).not.toBeInTheDocument();
    first.unmount();

    signIn(adminUser());
    explorerApi();
    await openExplorer('/files');
    expect(await screen.findAllByRole('link', { name: 'vv@example.org' })).not.toHaveLength(0);
    expect(screen.getAllByRole('link', { name: 'ar@example.org' })[0]).toHaveAttribute(
      'href',
      'mailto:ar@example.org',
    );
  });

  it('reports a tree that cannot be loaded with the toast "Daten konnten nicht geladen werden"', async () => {
    signIn(makeUser());
    explorerApi({ 'GET /api/v1/tree': json(500, { message: 'Serverfehler' }) });
    renderApp('/files');
    expect(
      await screen.findByText(FOLDER_MESSAGES.loadFailed, { selector: '.mantine-Notification-description' }),
    ).toBeInTheDocument();
  });

  it('leaves a refusal for a second factor still to set up to the gate: no red toast', async () => {
    signIn(adminUser());
    const refused = json(403, {
      message: TWO_FACTOR_MESSAGES.setupRequired,
      code: 'two_factor_setup_required',
    });
    explorerApi({
      'GET /api/v1/tree': refused,
      'GET /api/v1/root/files': refused,
      'GET /api/v1/account': json(200, {
        data: {
          ...adminUser(),
          title: 'Frau',
          firstname: 'Ada',
          lastname: 'Admin',
          roles_string: 'Admin',
          two_factor: {
            totp: false,
            webauthn: 0,
            recovery_codes_left: 0,
            required: true,
            passkeys: [],
            trusted_devices: [],
          },
        },
      }),
    });
    const { router } = renderApp('/files');
    expect(
      await screen.findByText(TWO_FACTOR_MESSAGES.setupRequired, {
        selector: '.mantine-Notification-description',
      }),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
    await screen.findByRole('heading', { name: 'Zwei-Faktor-Anmeldung' });
    expect(
      screen.queryByText(FOLDER_MESSAGES.loadFailed, { selector: '.mantine-Notification-description' }),
    ).not.toBeInTheDocument();
  });

  it('says so when the folder in the address does not exist or is hidden', async () => {
    signIn(makeUser());
    explorerApi({ 'GET /api/v1/folders/99/files': json(404, { message: 'Nicht gefunden.' }) });
    await openExplorer('/files?folder=99');
    expect(await screen.findByText('Ordner nicht gefunden')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zum Hauptordner' })).toBeInTheDocument();
  });

  it('asks before deleting a folder, names what it contains, and moves to the parent', async () => {
    signIn(adminUser());
    const api = explorerApi({
      'GET /api/v1/folders/6': json(200, { data: folderDetail(6, '/Aufsichtsrat/Sitzungen', 2) }),
      'DELETE /api/v1/folders/6': { status: 204 },
    });
    const { user, router } = await openExplorer('/files?folder=6');
    await user.click(screen.getByRole('button', { name: 'Weitere Aktionen' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ordner löschen' }));

    const dialog = await screen.findByRole('dialog', { name: 'Ordner löschen' });
    expect(dialog).toHaveTextContent(FOLDER_MESSAGES.trashConfirm(3, 7));
    expect(dialog).toHaveTextContent(
      'Der Ordner enthält 3 Ordner und 7 Dateien. Alles wird in den Papierkorb verschoben.',
    );
    expect(dialog).toHaveTextContent(FOLDER_MESSAGES.deleteToTrash);
    await user.click(within(dialog).getByRole('button', { name: 'Löschen' }));

    await waitFor(() => expect(router.state.location.search).toBe('?folder=2'));
    expect(await screen.findByText(FOLDER_MESSAGES.deleted)).toBeInTheDocument();
    expect(api.requests.some((r) => r.method === 'DELETE' && r.url === '/api/v1/folders/6')).toBe(true);
  });

  it("opens a document's page from its name and the file dialog from its ⋮, focus returning to the ⋮", async () => {
    signIn(adminUser());
    const bericht = makeStoredFile({ id: 50, title: 'Bericht', folder_id: 2 });
    explorerApi({
      'GET /api/v1/folders/2/files': json(200, {
        data: [{ ...folderDetail(6, '/Aufsichtsrat/Sitzungen', 2), new_count: 0 }, bericht],
      }),
      'GET /api/v1/files/50': json(200, { data: { ...bericht, text_state: 'indexed' } }),
    });
    const { user, router } = await openExplorer('/files?folder=2');
    const grid = await screen.findByRole('table', { name: 'Inhalt von /Aufsichtsrat' });

    // Admins: the folder's ⋮ is a menu, the document's opens "Datei ausgewählt" (decision 183).
    await user.click(within(grid).getByRole('button', { name: 'Aktionen für „Sitzungen“' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual([
      'Bearbeiten',
      'Löschen',
    ]);
    await user.keyboard('{Escape}');
    const trigger = within(grid).getByRole('button', { name: 'Aktionen für „Bericht“' });
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Datei ausgewählt' });
    for (const name of ['Ansehen', 'Herunterladen', 'Bearbeiten', 'Löschen']) {
      expect(within(dialog).getByRole('button', { name })).toBeInTheDocument();
    }
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(trigger).toHaveFocus());

    await user.click(within(grid).getByRole('link', { name: 'Bericht' }));
    expect(router.state.location.pathname).toBe('/files/show/50');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Bericht' })).toHaveFocus());
  });

  it('shows placeholders rather than the root while the tree loads, and the contact box after it', async () => {
    signIn(vertreterUser({ roles: ['Aufsichtsrat'] }));
    let releaseTree!: () => void;
    const treeHeld = new Promise<void>((resolve) => (releaseTree = resolve));
    explorerApi({
      'GET /api/v1/tree': async () => {
        await treeHeld;
        return json(200, { data: TREE });
      },
    });
    renderApp('/files?folder=6');

    expect(await screen.findByRole('status', { name: 'Inhalt wird geladen' })).toBeVisible();
    expect(screen.queryByRole('heading', { level: 2 })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Aktueller Pfad' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Kontakt' })).not.toBeInTheDocument();

    releaseTree();
    expect(await screen.findByRole('heading', { name: 'Sitzungen', level: 2 })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { name: 'Kontakt' }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('status', { name: 'Inhalt wird geladen' })).not.toBeInTheDocument();
  });
});
