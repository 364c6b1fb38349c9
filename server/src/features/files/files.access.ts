import { sql, type SqlBool } from 'kysely';
import type { Folder, FolderRef } from '@gremienportal/contracts/folders';
import type { StoredFile } from '@gremienportal/contracts/files';
import type { Principal } from '../../plugins/auth.ts';
import type { FileRecord, FileRowFilter, FolderRecord, RoleRow } from './files.repository.ts';

/** Who is looking: Admins and Super-Admins see everything, others what shares a role with them. */
export interface Viewer {
  isAdmin: boolean;
  roleIds: ReadonlySet<number>;
}

export const viewerOf = (principal: Pick<Principal, 'isAdmin' | 'roleIds'>): Viewer => ({
  isAdmin: principal.isAdmin,
  roleIds: new Set(principal.roleIds),
});

const sharesRole = (roles: readonly RoleRow[], viewer: Viewer) =>
  roles.some((role) => viewer.roleIds.has(role.id));

/**
 * The file half of `FolderTree#canSeeFile` as SQL: the file shares a role with the viewer;
 * undefined for Admins, who see every file. The folder chain is checked in memory afterwards,
 * which costs no query, so a hidden file and a missing one run the same queries.
 */
export function fileRoleFilter(viewer: Viewer): FileRowFilter | undefined {
  if (viewer.isAdmin) return undefined;
  const roleIds = [...viewer.roleIds];
  return (eb) =>
    roleIds.length === 0
      ? sql<SqlBool>`1 = 0`
      : eb.exists(
          eb
            .selectFrom('file_roles')
            .select('file_roles.file_id')
            .whereRef('file_roles.file_id', '=', 'files.id')
            .where('file_roles.role_id', 'in', roleIds),
        );
}

const byTitle = new Intl.Collator('de', { sensitivity: 'base', numeric: true });
export const compareTitles = (a: { title: string; id: number }, b: { title: string; id: number }) =>
  byTitle.compare(a.title, b.title) || a.id - b.id;
export const compareBreadcrumbs = (a: { breadcrumb: string }, b: { breadcrumb: string }) =>
  byTitle.compare(a.breadcrumb, b.breadcrumb);

/** Child breadcrumb: `/` + title under the root, `parent/title` below. */
export const childBreadcrumb = (parent: string, title: string) =>
  parent === '/' ? `/${title}` : `${parent}/${title}`;

/** Sibling titles are compared case-insensitively (DESIGN 4.22). */
export const sameTitle = (a: string, b: string) => a.toLocaleLowerCase('de') === b.toLocaleLowerCase('de');

/**
 * The whole folder tree in memory, with what one viewer may see (DESIGN 4.9): a folder is
 * visible when it and every folder above it shares a role with the viewer; the root (no parent)
 * is visible to every signed-in user; Admins see all.
 */
export class FolderTree {
  readonly byId = new Map<number, FolderRecord>();
  private readonly childrenById = new Map<number, FolderRecord[]>();
  readonly visible = new Set<number>();

  constructor(
    records: readonly FolderRecord[],
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
  find(id: number): FolderRecord | undefined {
    return this.visible.has(id) ? this.byId.get(id) : undefined;
  }

  /** Direct subfolders, visible or not (for writes, which only admins do). */
  allChildren(id: number): FolderRecord[] {
    return this.childrenById.get(id) ?? [];
  }

  visibleChildren(id: number): FolderRecord[] {
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

  visibleFolders(): FolderRecord[] {
    return [...this.visible].map((id) => this.byId.get(id)!).sort(compareBreadcrumbs);
  }

  /** A file is visible when its folder is and it shares a role with the viewer. */
  canSeeFile(file: Pick<FileRecord, 'folder_id' | 'roles'>): boolean {
    if (!this.visible.has(file.folder_id)) return false;
    return this.viewer.isAdmin || sharesRole(file.roles, this.viewer);
  }
}

const roleNames = (roles: readonly RoleRow[]) => roles.map((role) => role.name);

export function toFolderRef(folder: FolderRecord): FolderRef {
  return { id: folder.id, breadcrumb: folder.breadcrumb };
}

/** The API shape of a folder; `fileCounts` holds the viewer's visible files per folder. */
export function toFolder(
  folder: FolderRecord,
  tree: FolderTree,
  fileCounts: ReadonlyMap<number, number>,
): Folder {
  const parent = folder.parent_id === null ? undefined : tree.byId.get(folder.parent_id);
  const names = roleNames(folder.roles);
  return {
    type: 'folder',
    id: folder.id,
    title: folder.title,
    format: 'folder',
    date: folder.created_at,
    roles: names,
    roles_string: names.join(', '),
    breadcrumb: folder.breadcrumb,
    parent: parent ? toFolderRef(parent) : null,
    parent_id: folder.parent_id,
    children: tree.visibleChildren(folder.id).length,
    files: fileCounts.get(folder.id) ?? 0,
    updated_at: folder.updated_at,
  };
}

const BYTES_PER_MB = 1024 * 1024;

/** The API shape of a file. */
export function toStoredFile(file: FileRecord, folder: FolderRecord | undefined): StoredFile {
  const names = roleNames(file.roles);
  return {
    type: 'file',
    id: file.id,
    title: file.title,
    format: file.format,
    date: file.created_at,
    external: file.download_key,
    mime_type: file.mime_type,
    roles: names,
    roles_string: names.join(', '),
    folder: folder ? { id: folder.id, title: folder.title, breadcrumb: folder.breadcrumb } : null,
    folder_id: file.folder_id,
    folder_name: folder?.title ?? '',
    size: Math.round((file.size_bytes / BYTES_PER_MB) * 100) / 100,
    size_bytes: file.size_bytes,
    updated_at: file.updated_at,
  };
}
