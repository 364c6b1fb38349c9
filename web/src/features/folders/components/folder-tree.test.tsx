import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TreeNode } from '@gremienportal/contracts/files';
import { renderWithProviders } from '../../../testing/render';
import { FolderTree, TREE_INDENT_PX } from './folder-tree';

const node = (id: number, breadcrumb: string, children: TreeNode[] = []): TreeNode => ({
  id,
  title: breadcrumb === '/' ? '/' : breadcrumb.split('/').pop()!,
  breadcrumb,
  roles: [],
  children,
  files: [],
});

const TREE = node(1, '/', [
  node(4, '/Allgemein', [node(8, '/Allgemein/Satzung')]),
  node(2, '/Aufsichtsrat', [
    node(6, '/Aufsichtsrat/2026', [node(9, '/Aufsichtsrat/2026/März')]),
    node(7, '/Aufsichtsrat/2025'),
  ]),
  node(3, '/Mitgliedervertreter', [node(5, '/Mitgliedervertreter/Versammlung')]),
]);

function renderTree(activeId: number, activePath: string) {
  const onSelect = vi.fn();
  const result = renderWithProviders(
    <FolderTree root={TREE} activeId={activeId} activePath={activePath} onSelect={onSelect} />,
  );
  return { ...result, onSelect };
}

const folderButton = (name: string) => screen.getByRole('button', { name });

describe('FolderTree', () => {
  it('expands exactly the nodes whose breadcrumb the active path starts with', () => {
    renderTree(6, '/Aufsichtsrat/2026');
    const tree = screen.getByRole('navigation', { name: 'Ordnerbaum' });

    expect(folderButton('Hauptordner')).toHaveAttribute('aria-expanded', 'true');
    expect(folderButton('Aufsichtsrat')).toHaveAttribute('aria-expanded', 'true');
    expect(folderButton('2026')).toHaveAttribute('aria-expanded', 'true');
    expect(folderButton('Allgemein')).toHaveAttribute('aria-expanded', 'false');
    expect(folderButton('Mitgliedervertreter')).toHaveAttribute('aria-expanded', 'false');
    // Children of expanded nodes are shown, children of collapsed ones are not.
    expect(within(tree).getByRole('button', { name: 'März' })).toBeInTheDocument();
    expect(within(tree).getByRole('button', { name: '2025' })).toBeInTheDocument();
    expect(within(tree).queryByRole('button', { name: 'Satzung' })).not.toBeInTheDocument();
    expect(within(tree).queryByRole('button', { name: 'Versammlung' })).not.toBeInTheDocument();
    // A folder without subfolders has nothing to expand.
    expect(folderButton('2025')).not.toHaveAttribute('aria-expanded');
  });

  it('marks the active folder and indents 15 px per level', () => {
    renderTree(6, '/Aufsichtsrat/2026');
    expect(folderButton('2026')).toHaveAttribute('aria-current', 'true');
    expect(folderButton('Aufsichtsrat')).not.toHaveAttribute('aria-current');
    expect(TREE_INDENT_PX).toBe(15);
    expect(folderButton('Hauptordner')).toHaveStyle({ paddingLeft: '8px' });
    expect(folderButton('Aufsichtsrat')).toHaveStyle({ paddingLeft: '23px' });
    expect(folderButton('2026')).toHaveStyle({ paddingLeft: '38px' });
    expect(folderButton('März')).toHaveStyle({ paddingLeft: '53px' });
  });

  it('activates a collapsed node when clicked', async () => {
    const { user, onSelect } = renderTree(6, '/Aufsichtsrat/2026');
    await user.click(folderButton('Mitgliedervertreter'));
    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(onSelect.mock.calls[0]![0]).toMatchObject({ id: 3, breadcrumb: '/Mitgliedervertreter' });
  });

  it('activates the own path of an expanded node, which collapses what was open below it', async () => {
    const { user, onSelect, rerender } = renderTree(9, '/Aufsichtsrat/2026/März');
    await user.click(folderButton('Aufsichtsrat'));
    expect(onSelect.mock.calls[0]![0]).toMatchObject({ id: 2, breadcrumb: '/Aufsichtsrat' });

    rerender(<FolderTree root={TREE} activeId={2} activePath="/Aufsichtsrat" onSelect={onSelect} />);
    expect(folderButton('Aufsichtsrat')).toHaveAttribute('aria-expanded', 'true');
    expect(folderButton('2026')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'März' })).not.toBeInTheDocument();
  });

  it('works with the keyboard: Tab reaches the folders, Enter and Space open them', async () => {
    const { user, onSelect } = renderTree(1, '/');
    await user.tab();
    expect(folderButton('Hauptordner')).toHaveFocus();
    await user.tab();
    expect(folderButton('Allgemein')).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onSelect.mock.calls[0]![0]).toMatchObject({ id: 4 });
    await user.tab();
    await user.keyboard(' ');
    expect(onSelect.mock.calls[1]![0]).toMatchObject({ id: 2 });
  });
});
