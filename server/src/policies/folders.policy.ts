import { sharesRole, viewerKey, type Viewer } from './principal.ts';

/** What the folder rule needs of a folder; the files feature's records carry more. */
export interface FolderNode {
  id: number;
  parent_id: number | null;
  title: string;
  breadcrumb: string;
  roles: readonly { id: number }[];
  /** Own flag: the folder of an ended Amtsperiode (decision 189); what lies below inherits it. */
  archived?: boolean;
}

const byTitle = new Intl.Collator('de', { sensitivity: 'base', numeric: true });

export const compareTitles = (a: { title: string; id: number }, b: { title: string; id: number }) =>
  byTitle.compare(a.title, b.title) || a.id - b.id;

export const compareBreadcrumbs = (a: { breadcrumb: string }, b: { breadcrumb: string }) =>
  byTitle.compare(a.breadcrumb, b.breadcrumb);

/**
 * The whole folder tree in memory, with what one viewer may see (product.md P5): a folder is
 * visible when it and every folder above it shares a role with the viewer; the root (no parent)
 * is visible to every signed-in user; Admins see all. The tree is the folder rule's only form:
 * the folders are few and cached, and the files' SQL filter takes the visible ids from here.
 */
export class FolderTree<F extends FolderNode = FolderNode> {
  readonly byId = new Map<number, F>();
  private readonly childrenById = new Map<number, F[]>();
  readonly visible = new Set<number>();
  /** Archived folders and everything below them, whoever looks (decision 189). */
  private readonly archived = new Set<number>();

  constructor(
    records: readonly F[],
    readonly viewer: Viewer,
  ) {
    for (const record of records) {
      this.byId.set(record.id, record);
      if (record.parent_id !== null) {
        const list = this.childrenById.get(record.parent_id) ?? [];
        list.push(record);
        this.childrenById.set(record.parent_id, list);
      }
    }
    for (const list of this.childrenById.values()) list.sort(compareTitles);
    // Top-down over every folder: below an archived folder everything is archived.
    const all = records.filter((record) => record.parent_id === null);
    for (let next = 0; next < all.length; next += 1) {
      const folder = all[next]!;
      const parentArchived = folder.parent_id !== null && this.archived.has(folder.parent_id);
      if (folder.archived || parentArchived) this.archived.add(folder.id);
      all.push(...(this.childrenById.get(folder.id) ?? []));
    }
    // Top-down from the roots: a folder is visible only below a visible parent.
    const queue = records.filter((record) => record.parent_id === null);
    for (const root of queue) this.visible.add(root.id);
    for (let next = 0; next < queue.length; next += 1) {
      for (const child of this.childrenById.get(queue[next]!.id) ?? []) {
        if (viewer.isAdmin || sharesRole(child.roles, viewer)) {
          this.visible.add(child.id);
          queue.push(child);
        }
      }
    }
  }

  /** The folder if it exists and the viewer may see it; hidden and missing look the same. */
  find(id: number): F | undefined {
    return this.visible.has(id) ? this.byId.get(id) : undefined;
  }

  /** Direct subfolders, visible or not (for writes, which only admins do). */
  allChildren(id: number): F[] {
    return this.childrenById.get(id) ?? [];
  }

  visibleChildren(id: number): F[] {
    return this.allChildren(id).filter((child) => this.visible.has(child.id));
  }

  /** Ids of every folder below `id`, at any depth (not `id` itself). */
  descendantIds(id: number): number[] {
    const result: number[] = [];
    for (let next = -1; next < result.length; next += 1) {
      for (const child of this.childrenById.get(next < 0 ? id : result[next]!) ?? []) result.push(child.id);
    }
    return result;
  }

  /**
   * Read-only (decision 189): the folder, or a folder above it, is the folder of an ended
   * Amtsperiode. Nothing in it is uploaded, replaced, moved, renamed or deleted, also by Admins.
   */
  isArchived(id: number): boolean {
    return this.archived.has(id);
  }

  /** Whether the folder or a folder below it is archived (deleting it would delete the archive). */
  holdsArchived(id: number): boolean {
    return this.isArchived(id) || this.descendantIds(id).some((below) => this.isArchived(below));
  }

  visibleFolders(): F[] {
    return [...this.visible].map((id) => this.byId.get(id)!).sort(compareBreadcrumbs);
  }
}

export const canSeeFolder = (tree: FolderTree<FolderNode>, folderId: number) => tree.visible.has(folderId);

/**
 * The trees of many viewers over the same folders (mail recipients, "who can see this"): one
 * per viewer kind, as few as there are role combinations.
 */
export function treesByViewer<F extends FolderNode>(
  folders: readonly F[],
): (viewer: Viewer) => FolderTree<F> {
  const trees = new Map<string, FolderTree<F>>();
  return (viewer) => {
    const key = viewerKey(viewer);
    let tree = trees.get(key);
    if (!tree) {
      tree = new FolderTree(folders, viewer);
      trees.set(key, tree);
    }
    return tree;
  };
}
