import { describe, expect, it } from 'vitest';
import type { TreeNode } from '@gremienportal/contracts/files';
import { isWithinPath } from '../../lib/folder-paths';
import {
  canChangeFolder,
  canCreateIn,
  folderIdFromParam,
  folderSearch,
  indexTree,
  isNodeExpanded,
} from './folders.rules';

const node = (id: number, breadcrumb: string, children: TreeNode[] = [], roles: string[] = []): TreeNode => ({
  id,
  title: breadcrumb === '/' ? '/' : breadcrumb.split('/').pop()!,
  breadcrumb,
  roles,
  new_count: 0,
  archived: false,
  children,
  files: [],
});

const TREE = node(1, '/', [
  node(2, '/Aufsichtsrat', [node(6, '/Aufsichtsrat/2026', [node(9, '/Aufsichtsrat/2026/März')])]),
  node(3, '/Mitgliedervertreter'),
  node(4, '/Allgemein'),
  node(7, '/Aufsichtsrat-Archiv'),
]);

describe('tree expansion rule (product.md P3)', () => {
  it('expands a node when the active path starts with its breadcrumb', () => {
    expect(isNodeExpanded(node(1, '/'), '/Aufsichtsrat/2026')).toBe(true);
    expect(isNodeExpanded(node(2, '/Aufsichtsrat'), '/Aufsichtsrat/2026')).toBe(true);
    expect(isNodeExpanded(node(6, '/Aufsichtsrat/2026'), '/Aufsichtsrat/2026')).toBe(true);
    expect(isNodeExpanded(node(9, '/Aufsichtsrat/2026/März'), '/Aufsichtsrat/2026')).toBe(false);
    expect(isNodeExpanded(node(3, '/Mitgliedervertreter'), '/Aufsichtsrat/2026')).toBe(false);
  });

  it('compares whole path segments, so a sibling with a longer name stays collapsed', () => {
    expect(isWithinPath('/Aufsichtsrat-Archiv', '/Aufsichtsrat')).toBe(false);
    expect(isNodeExpanded(node(2, '/Aufsichtsrat'), '/Aufsichtsrat-Archiv/2020')).toBe(false);
    expect(isWithinPath('/Aufsichtsrat/2026', '/Aufsichtsrat')).toBe(true);
  });

  it('keeps only the root expanded at the root', () => {
    expect(isNodeExpanded(node(1, '/'), '/')).toBe(true);
    expect(isNodeExpanded(node(2, '/Aufsichtsrat'), '/')).toBe(false);
  });
});

describe('button enabling (product.md P4)', () => {
  it('allows no uploads and no new folders at the root', () => {
    expect(canCreateIn(1)).toBe(false);
    expect(canCreateIn(2)).toBe(true);
    expect(canCreateIn(17)).toBe(true);
  });

  it('protects folders 1 to 4 from edit and delete', () => {
    expect([1, 2, 3, 4].map(canChangeFolder)).toEqual([false, false, false, false]);
    expect(canChangeFolder(5)).toBe(true);
  });
});

describe('tree navigation', () => {
  it('finds folders, their chain from the root and their parent', () => {
    const index = indexTree(TREE);
    expect(index.node(9)?.breadcrumb).toBe('/Aufsichtsrat/2026/März');
    expect(index.node(99)).toBeUndefined();
    expect(index.chain(9).map((n) => n.id)).toEqual([1, 2, 6, 9]);
    expect(index.chain(1).map((n) => n.id)).toEqual([1]);
    expect(index.chain(99)).toEqual([]);
    expect(index.parent(6)?.id).toBe(2);
    expect(index.parent(1)).toBeUndefined();
    expect(index.parent(99)).toBeUndefined();
  });

  it('reads the folder from the address, falling back to the root', () => {
    expect(folderIdFromParam('12')).toBe(12);
    expect(folderIdFromParam(null)).toBe(1);
    expect(folderIdFromParam('abc')).toBe(1);
    expect(folderIdFromParam('0')).toBe(1);
    expect(folderIdFromParam('99999999999')).toBe(1);
    expect(folderSearch(1)).toBe('');
    expect(folderSearch(12)).toBe('?folder=12');
  });
});
