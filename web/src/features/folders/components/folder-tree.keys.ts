import { isNodeExpanded } from '../folders.rules';

/** What the tree needs of a folder (the explorer passes its `FolderNode`s). */
export interface FolderTreeItem {
  id: number;
  title: string;
  breadcrumb: string;
  children: readonly FolderTreeItem[];
  /** Documents below it that are new for the member (decision 131); shown as a count. */
  new_count?: number;
  /** An ended Amtsperiode's folder or below it (decision 189); shown as "Archiv". */
  archived?: boolean;
}

/** A folder the tree shows now: every folder whose parents are all expanded. */
export interface VisibleRow {
  node: FolderTreeItem;
  parent: FolderTreeItem | undefined;
}

export const treeLabel = (node: FolderTreeItem) => (node.breadcrumb === '/' ? 'Hauptordner' : node.title);

/** product.md P3.5: a node is expanded when the active path is its breadcrumb or lies below it. */
export function expandedFor(root: FolderTreeItem, activePath: string): ReadonlySet<number> {
  const expanded = new Set<number>();
  const walk = (node: FolderTreeItem) => {
    if (!isNodeExpanded(node, activePath)) return;
    expanded.add(node.id);
    node.children.forEach(walk);
  };
  walk(root);
  return expanded;
}

/** The shown folders from top to bottom, as arrow keys walk them. */
export function visibleRows(root: FolderTreeItem, expanded: ReadonlySet<number>): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const walk = (node: FolderTreeItem, parent: FolderTreeItem | undefined) => {
    rows.push({ node, parent });
    if (expanded.has(node.id)) for (const child of node.children) walk(child, node);
  };
  walk(root, undefined);
  return rows;
}

/** What a key does in the tree (WAI-ARIA tree view pattern). */
export type TreeKeyEffect =
  | { kind: 'focus'; id: number }
  | { kind: 'expand'; id: number }
  | { kind: 'collapse'; id: number }
  | { kind: 'open'; node: FolderTreeItem };

/**
 * Up/Down move, Home/End go to the first/last shown folder, Right expands or steps to the first
 * child, Left collapses or steps to the parent, Enter and Space open the folder, and a letter moves
 * to the next folder starting with it. Undefined: the key is not the tree's.
 */
export function treeKeyEffect(
  key: string,
  rows: readonly VisibleRow[],
  index: number,
  expanded: ReadonlySet<number>,
): TreeKeyEffect | undefined {
  const row = rows[index];
  if (!row) return undefined;
  const { node, parent } = row;
  const focus = (target: VisibleRow | undefined): TreeKeyEffect | undefined =>
    target ? { kind: 'focus', id: target.node.id } : undefined;
  const hasChildren = node.children.length > 0;
  switch (key) {
    case 'ArrowDown':
      return focus(rows[index + 1]) ?? { kind: 'focus', id: node.id };
    case 'ArrowUp':
      return focus(rows[index - 1]) ?? { kind: 'focus', id: node.id };
    case 'Home':
      return focus(rows[0]);
    case 'End':
      return focus(rows[rows.length - 1]);
    case 'ArrowRight':
      if (!hasChildren) return { kind: 'focus', id: node.id };
      return expanded.has(node.id) ? focus(rows[index + 1]) : { kind: 'expand', id: node.id };
    case 'ArrowLeft':
      if (hasChildren && expanded.has(node.id)) return { kind: 'collapse', id: node.id };
      return parent ? { kind: 'focus', id: parent.id } : { kind: 'focus', id: node.id };
    case 'Enter':
    case ' ':
      return { kind: 'open', node };
    default: {
      if (key.length !== 1 || !/\p{L}|\p{N}/u.test(key)) return undefined;
      const letter = key.toLocaleLowerCase('de-DE');
      const after = [...rows.slice(index + 1), ...rows.slice(0, index)];
      const match = after.find((candidate) =>
        treeLabel(candidate.node).toLocaleLowerCase('de-DE').startsWith(letter),
      );
      return match ? { kind: 'focus', id: match.node.id } : { kind: 'focus', id: node.id };
    }
  }
}
