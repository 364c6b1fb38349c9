import { PROTECTED_FOLDER_IDS, ROOT_FOLDER_ID } from '@gremienportal/contracts/rules';
import type { TreeNode } from '@gremienportal/contracts/files';
import { isWithinPath } from '../../lib/folder-paths';

/** The folder rules of product.md P3.5 and P4.3 as plain functions, so they are tested on their own. */

/** product.md P3: a tree node is expanded when the active folder path starts with its breadcrumb. */
export const isNodeExpanded = (node: Pick<TreeNode, 'breadcrumb'>, activePath: string) =>
  isWithinPath(activePath, node.breadcrumb);

/** product.md P4: no uploads and no new folders in the root folder. */
export const canCreateIn = (folderId: number) => folderId !== ROOT_FOLDER_ID;

/** product.md P4: the protected folders 1–4 are never edited or deleted. */
export const canChangeFolder = (folderId: number) => !PROTECTED_FOLDER_IDS.includes(folderId);

/**
 * Whether the folder or one below it is archived (an ended Amtsperiode, decision 189): deleting it
 * would delete the archive, so the server refuses it.
 */
export function holdsArchived(node: { archived?: boolean; children: readonly unknown[] }): boolean {
  return (
    node.archived === true ||
    node.children.some((child) =>
      holdsArchived(child as { archived?: boolean; children: readonly unknown[] }),
    )
  );
}

export const ROOT_DISABLED_REASON =
  'Im Hauptordner können keine Dateien hochgeladen und keine Ordner angelegt werden. Bitte zuerst einen Unterordner öffnen.';
export const PROTECTED_DISABLED_REASON =
  'Dieser Ordner ist geschützt und kann weder bearbeitet noch gelöscht werden.';

/** A folder of a tree: the API's `TreeNode` or the explorer's leaner `FolderNode`. */
interface TreeFolder<T> {
  id: number;
  children: readonly T[];
}

/** Lookups into one loaded tree: built once per tree, then each lookup is a map read. */
export interface TreeIndex<T> {
  /** The folder with `id`, or undefined when the tree does not hold it. */
  node(id: number): T | undefined;
  /** The folder above the folder with `id`, or undefined for the root and unknown ids. */
  parent(id: number): T | undefined;
  /** The chain of folders from the root down to the folder with `id` (both included). */
  chain(id: number): T[];
}

/**
 * Indexes every folder of the tree by id, with its parent. The explorer looks up the active
 * folder and its path on every render; walking a tree of thousands of folders each time made
 * those renders slow (decision 114).
 */
export function indexTree<T extends TreeFolder<T>>(root: T): TreeIndex<T> {
  const nodes = new Map<number, T>();
  const parents = new Map<number, T>();
  const stack: T[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    nodes.set(node.id, node);
    for (const child of node.children) {
      parents.set(child.id, node);
      stack.push(child);
    }
  }
  return {
    node: (id) => nodes.get(id),
    parent: (id) => parents.get(id),
    chain: (id) => {
      const chain: T[] = [];
      for (let node = nodes.get(id); node; node = parents.get(node.id)) chain.unshift(node);
      return chain;
    },
  };
}

/** A folder id from the address (`?folder=12`); the root for anything missing or malformed. */
export function folderIdFromParam(value: string | null): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return ROOT_FOLDER_ID;
  const id = Number(value);
  return id <= 2_147_483_647 ? id : ROOT_FOLDER_ID;
}

/** The API address of a folder's subfolders and documents (the root has its own). */
export const folderItemsPath = (id: number) =>
  id === ROOT_FOLDER_ID ? '/root/files' : `/folders/${id}/files`;

/** The API address of the folder tree without the documents (decision 114). */
export const FOLDER_TREE_PATH = '/tree?files=false';

/** The explorer's address for a folder: the root is the bare page. */
export const folderSearch = (id: number) => (id === ROOT_FOLDER_ID ? '' : `?folder=${id}`);
