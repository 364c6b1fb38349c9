import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import type { Folder } from '@gremienportal/contracts/folders';
import type { TreeNode } from '@gremienportal/contracts/files';
import { FileDialog } from '../../features/files/components/file-dialog';
import { FolderEditForm } from '../../features/folders/components/folder-edit-form';
import { FolderTree } from '../../features/folders/components/folder-tree';
import { holdsArchived } from '../../features/folders/folders.rules';
import { json, mockApi } from '../../testing/fetch-mock';
import { adminUser, makeStoredFile, signIn } from '../../testing/factories';
import { renderWithProviders } from '../../testing/render';
import { ExplorerGrid } from './explorer-grid';
import { ExplorerToolbar, MORE_ACTIONS_LABEL } from './explorer-toolbar';

// Decision 189: the folder of an ended Amtsperiode and everything below it is read-only; the
// explorer says so with an "Archiv" badge and leaves out what the server would refuse.

const node = (id: number, breadcrumb: string, archived: boolean, children: TreeNode[] = []): TreeNode => ({
  id,
  title: breadcrumb === '/' ? '/' : breadcrumb.split('/').pop()!,
  breadcrumb,
  roles: ['Aufsichtsrat'],
  new_count: 0,
  archived,
  children,
  files: [],
});

const TREE = node(1, '/', false, [
  node(2, '/Aufsichtsrat', false, [
    node(20, '/Aufsichtsrat/Amtsperiode 2018–2022', true, [
      node(21, '/Aufsichtsrat/Amtsperiode 2018–2022/2018', true),
    ]),
    node(30, '/Aufsichtsrat/Amtsperiode 2022–2026', false),
  ]),
]);

const folder = (id: number, title: string, archived: boolean): Folder => ({
  type: 'folder',
  id,
  title,
  format: 'folder',
  date: '2026-01-10T09:00:00.000Z',
  roles: ['Aufsichtsrat'],
  roles_string: 'Aufsichtsrat',
  breadcrumb: `/Aufsichtsrat/${title}`,
  parent: { id: 2, breadcrumb: '/Aufsichtsrat', archived: false },
  parent_id: 2,
  children: 0,
  files: 0,
  new_count: 0,
  updated_at: '2026-01-10T09:00:00.000Z',
  archived,
});

async function menuEntries(user: ReturnType<typeof renderWithProviders>['user']) {
  await user.click(screen.getByRole('button', { name: MORE_ACTIONS_LABEL }));
  return (await screen.findAllByRole('menuitem')).map((entry) => entry.textContent);
}

describe('the archive in the explorer', () => {
  it('marks archived folders in the tree with "Archiv", said after the name', () => {
    renderWithProviders(
      <FolderTree
        root={TREE}
        activeId={21}
        activePath="/Aufsichtsrat/Amtsperiode 2018–2022/2018"
        onSelect={vi.fn()}
      />,
    );
    const archived = screen.getByRole('treeitem', { name: 'Amtsperiode 2018–2022' });
    const badge = within(archived.firstElementChild as HTMLElement).getByText(FOLDER_MESSAGES.archivedBadge);
    expect(badge.closest('[title]')).toHaveAttribute('title', FOLDER_MESSAGES.archived);
    expect(archived).toHaveAccessibleDescription(FOLDER_MESSAGES.archivedBadge);
    expect(screen.getByRole('treeitem', { name: '2018' })).toHaveTextContent(FOLDER_MESSAGES.archivedBadge);
    const current = screen.getByRole('treeitem', { name: 'Amtsperiode 2022–2026' });
    expect(current).not.toHaveTextContent(FOLDER_MESSAGES.archivedBadge);
    expect(screen.getByRole('treeitem', { name: 'Aufsichtsrat' }).firstElementChild).not.toHaveTextContent(
      FOLDER_MESSAGES.archivedBadge,
    );
  });

  it('marks an archived folder row and offers no edit or delete menu for it', () => {
    renderWithProviders(
      <ExplorerGrid
        items={[folder(20, 'Amtsperiode 2018–2022', true), folder(30, 'Amtsperiode 2022–2026', false)]}
        label="Inhalt von /Aufsichtsrat"
        folderLink={(f) => `?folder=${f.id}`}
        onShowFileDialog={vi.fn()}
        onRowAction={vi.fn()}
        isAdmin
      />,
    );
    const table = screen.getByRole('table', { name: 'Inhalt von /Aufsichtsrat' });
    const archivedRow = within(table).getByRole('link', { name: 'Amtsperiode 2018–2022' }).closest('tr')!;
    expect(within(archivedRow).getByText(FOLDER_MESSAGES.archivedBadge)).toBeInTheDocument();
    expect(
      within(table).queryByRole('button', { name: 'Aktionen für „Amtsperiode 2018–2022“' }),
    ).not.toBeInTheDocument();
    const currentRow = within(table).getByRole('link', { name: 'Amtsperiode 2022–2026' }).closest('tr')!;
    expect(within(currentRow).queryByText(FOLDER_MESSAGES.archivedBadge)).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Aktionen für „Amtsperiode 2022–2026“' })).toBeEnabled();
  });

  it('leaves out upload, new folder, Amtsperiode and delete in an archived folder and says why', async () => {
    const onAction = vi.fn();
    const { user } = renderWithProviders(
      <ExplorerToolbar folderId={21} onAction={onAction} archived holdsArchived />,
    );
    expect(screen.queryByRole('button', { name: 'Datei hochladen' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Neuer Ordner' })).not.toBeInTheDocument();
    expect(screen.getByText(FOLDER_MESSAGES.archived)).toBeInTheDocument();
    expect(screen.getByText(FOLDER_MESSAGES.archivedBadge)).toBeInTheDocument();
    // Who may read it can still change.
    expect(await menuEntries(user)).toEqual(['Ordner bearbeiten', 'Papierkorb']);
  });

  it('keeps creating in a folder that holds an archive, but not deleting it', async () => {
    const { user } = renderWithProviders(
      <ExplorerToolbar folderId={12} onAction={vi.fn()} holdsArchived={holdsArchived(TREE.children[0]!)} />,
    );
    expect(screen.getByRole('button', { name: 'Datei hochladen' })).toBeEnabled();
    expect(screen.queryByText(FOLDER_MESSAGES.archived)).not.toBeInTheDocument();
    expect(await menuEntries(user)).toEqual(['Ordner bearbeiten', 'Amtsperiode erstellen', 'Papierkorb']);
    expect(holdsArchived(TREE.children[0]!.children[1]!)).toBe(false);
  });

  it('offers no edit or delete for a document in an archived folder, and says why', () => {
    signIn(adminUser());
    renderWithProviders(
      <FileDialog
        file={makeStoredFile({ archived: true })}
        isAdmin
        onClose={vi.fn()}
        onEdit={vi.fn()}
        onDelete={vi.fn()}
      />,
      { signedIn: true },
    );
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Ansehen' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Herunterladen' })).toBeEnabled();
    expect(within(dialog).queryByRole('button', { name: 'Bearbeiten' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Löschen' })).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent(FOLDER_MESSAGES.archived);
  });

  it('lets "Ordner bearbeiten" change only the roles of an archived folder', async () => {
    signIn(adminUser());
    const saved = folder(21, '2018', true);
    const api = mockApi({
      'GET /api/v1/roles': json(200, {
        data: [
          { id: 3, name: 'Aufsichtsrat' },
          { id: 4, name: 'Vertreter' },
        ],
      }),
      'GET /api/v1/breadcrumbs/21': json(200, {
        data: [
          { id: 2, breadcrumb: '/Aufsichtsrat', archived: false },
          { id: 20, breadcrumb: '/Aufsichtsrat/Amtsperiode 2018–2022', archived: true },
        ],
      }),
      'PUT /api/v1/folders/21': json(200, { folder: { ...saved, roles: ['Aufsichtsrat', 'Vertreter'] } }),
    });
    const onSaved = vi.fn();
    const { user } = renderWithProviders(
      <FolderEditForm
        folder={{ id: 21, title: '2018', parent_id: 20, roles: ['Aufsichtsrat'], archived: true }}
        onSaved={onSaved}
      />,
      { signedIn: true },
    );
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveAttribute('readonly');
    expect(name).toHaveAccessibleDescription(FOLDER_MESSAGES.archived);
    expect(screen.getByRole('combobox', { name: /^Verschieben nach/ })).toHaveAttribute('readonly');
    await user.click(screen.getByRole('combobox', { name: /^Zugriffsberechtigung/ }));
    await user.click(await screen.findByRole('option', { name: 'Vertreter' }));
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.requests.find((request) => request.method === 'PUT')!.body).toEqual({
      title: '2018',
      parent_id: 20,
      roles: ['3', '4'],
    });
  });
});
