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
  new_count: 0,
  archived: false,
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
    <>
      <button type="button">davor</button>
      <FolderTree root={TREE} activeId={activeId} activePath={activePath} onSelect={onSelect} />
      <button type="button">danach</button>
    </>,
  );
  return { ...result, onSelect };
}

const item = (name: string) => screen.getByRole('treeitem', { name });
/** The row the indentation sits on. */
const row = (name: string) => item(name).firstElementChild as HTMLElement;

describe('FolderTree', () => {
  it('is a tree that expands exactly the nodes whose breadcrumb the active path starts with', () => {
    renderTree(6, '/Aufsichtsrat/2026');
    const tree = screen.getByRole('tree', { name: 'Ordner' });
    expect(within(screen.getByRole('navigation', { name: 'Ordnerbaum' })).getByRole('tree')).toBe(tree);

    expect(item('Hauptordner')).toHaveAttribute('aria-expanded', 'true');
    expect(item('Aufsichtsrat')).toHaveAttribute('aria-expanded', 'true');
    expect(item('2026')).toHaveAttribute('aria-expanded', 'true');
    expect(item('Allgemein')).toHaveAttribute('aria-expanded', 'false');
    expect(item('Mitgliedervertreter')).toHaveAttribute('aria-expanded', 'false');
    // Children of expanded nodes are shown in a group, children of collapsed ones are not.
    expect(within(tree).getByRole('treeitem', { name: 'März' })).toBeInTheDocument();
    expect(item('2025').parentElement).toHaveAttribute('role', 'group');
    expect(within(tree).queryByRole('treeitem', { name: 'Satzung' })).not.toBeInTheDocument();
    expect(within(tree).queryByRole('treeitem', { name: 'Versammlung' })).not.toBeInTheDocument();
    // A folder without subfolders has nothing to expand.
    expect(item('2025')).not.toHaveAttribute('aria-expanded');
  });

  it('marks the active folder, tells level and position, and indents 15 px per level', () => {
    renderTree(6, '/Aufsichtsrat/2026');
    expect(item('2026')).toHaveAttribute('aria-selected', 'true');
    expect(item('Aufsichtsrat')).toHaveAttribute('aria-selected', 'false');
    expect(item('Aufsichtsrat')).toHaveAttribute('aria-level', '2');
    expect(item('Aufsichtsrat')).toHaveAttribute('aria-posinset', '2');
    expect(item('Aufsichtsrat')).toHaveAttribute('aria-setsize', '3');
    expect(item('März')).toHaveAttribute('aria-level', '4');
    expect(TREE_INDENT_PX).toBe(15);
    expect(row('Hauptordner')).toHaveStyle({ paddingLeft: '8px' });
    expect(row('Aufsichtsrat')).toHaveStyle({ paddingLeft: '23px' });
    expect(row('2026')).toHaveStyle({ paddingLeft: '38px' });
    expect(row('März')).toHaveStyle({ paddingLeft: '53px' });
  });

  it('activates a collapsed node when clicked', async () => {
    const { user, onSelect } = renderTree(6, '/Aufsichtsrat/2026');
    await user.click(item('Mitgliedervertreter'));
    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(onSelect.mock.calls[0]![0]).toMatchObject({ id: 3, breadcrumb: '/Mitgliedervertreter' });
  });

  it('activates the own path of an expanded node, which collapses what was open below it', async () => {
    const { user, onSelect, rerender } = renderTree(9, '/Aufsichtsrat/2026/März');
    await user.click(row('Aufsichtsrat'));
    expect(onSelect.mock.calls[0]![0]).toMatchObject({ id: 2, breadcrumb: '/Aufsichtsrat' });

    rerender(<FolderTree root={TREE} activeId={2} activePath="/Aufsichtsrat" onSelect={onSelect} />);
    expect(item('Aufsichtsrat')).toHaveAttribute('aria-expanded', 'true');
    expect(item('2026')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('treeitem', { name: 'März' })).not.toBeInTheDocument();
  });

  it('is one Tab stop, at the active folder', async () => {
    const { user } = renderTree(6, '/Aufsichtsrat/2026');
    const stops = screen.getAllByRole('treeitem').filter((treeItem) => treeItem.tabIndex === 0);
    expect(stops).toEqual([item('2026')]);
    await user.click(screen.getByRole('button', { name: 'davor' }));
    await user.tab();
    expect(item('2026')).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'danach' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(item('2026')).toHaveFocus();
  });

  it('moves with Up, Down, Home and End and keeps the Tab stop where focus went', async () => {
    const { user } = renderTree(1, '/');
    await user.tab();
    await user.tab();
    expect(item('Hauptordner')).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(item('Allgemein')).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(item('Mitgliedervertreter')).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(item('Mitgliedervertreter')).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(item('Aufsichtsrat')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(item('Hauptordner')).toHaveFocus();
    await user.keyboard('{End}');
    expect(item('Mitgliedervertreter')).toHaveFocus();
    expect(item('Mitgliedervertreter')).toHaveAttribute('tabindex', '0');
    expect(item('Hauptordner')).toHaveAttribute('tabindex', '-1');
    await user.keyboard('a');
    expect(item('Allgemein')).toHaveFocus();
  });

  it('expands and collapses with Right and Left, and steps to the first child and the parent', async () => {
    const { user, onSelect } = renderTree(1, '/');
    await user.tab();
    await user.tab();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(item('Aufsichtsrat')).toHaveFocus();
    expect(item('Aufsichtsrat')).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{ArrowRight}');
    expect(item('Aufsichtsrat')).toHaveAttribute('aria-expanded', 'true');
    expect(item('Aufsichtsrat')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(item('2026')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(item('Aufsichtsrat')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(item('Aufsichtsrat')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('treeitem', { name: '2026' })).not.toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(item('Hauptordner')).toHaveFocus();
    // Moving and expanding opens nothing.
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('opens the focused folder with Enter and with Space', async () => {
    const { user, onSelect } = renderTree(1, '/');
    await user.tab();
    await user.tab();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onSelect.mock.calls[0]![0]).toMatchObject({ id: 4 });
    await user.keyboard('{ArrowDown} ');
    expect(onSelect.mock.calls[1]![0]).toMatchObject({ id: 2 });
  });
});
