import type { Folder, FolderRef } from '@gremienportal/contracts/folders';
import type { StoredFile } from '@gremienportal/contracts/files';
import type { FolderTree } from '../../policies/folders.policy.ts';
import type { FileRecord, FolderRecord, RoleRow } from '../../db/document-records.ts';

/** The folder tree over the folder records. */
export type FilesTree = FolderTree<FolderRecord>;

/** Child breadcrumb: `/` + title under the root, `parent/title` below. */
export const childBreadcrumb = (parent: string, title: string) =>
  parent === '/' ? `/${title}` : `${parent}/${title}`;

/** Sibling titles are compared case-insensitively (product.md P6.3). */
export const sameTitle = (a: string, b: string) => a.toLocaleLowerCase('de') === b.toLocaleLowerCase('de');

const roleNames = (roles: readonly RoleRow[]) => roles.map((role) => role.name);

export function toFolderRef(folder: FolderRecord, tree: FilesTree): FolderRef {
  return { id: folder.id, breadcrumb: folder.breadcrumb, archived: tree.isArchived(folder.id) };
}

/**
 * The API shape of a folder; `fileCounts` holds the viewer's visible files per folder, `newCount`
 * the member's new documents in and below it (or a slot of a shared answer, read-state.ts).
 */
export function toFolder(
  folder: FolderRecord,
  tree: FilesTree,
  fileCounts: ReadonlyMap<number, number>,
  newCount: number,
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
    parent: parent ? toFolderRef(parent, tree) : null,
    parent_id: folder.parent_id,
    children: tree.visibleChildren(folder.id).length,
    files: fileCounts.get(folder.id) ?? 0,
    new_count: newCount,
    updated_at: folder.updated_at,
    archived: tree.isArchived(folder.id),
  };
}

const BYTES_PER_MB = 1024 * 1024;

/** Size in MB (1 MB = 1024 × 1024 bytes), two decimals, as every file answer carries it. */
export const megabytes = (bytes: number) => Math.round((bytes / BYTES_PER_MB) * 100) / 100;

/** What a file answer adds for the member (decision 131); left out inside the shared tree. */
export interface MemberFileFields {
  new: boolean;
  /** The member's confirmation of the current request; undefined leaves it out (listings). */
  acknowledgedAt?: string | null;
}

/**
 * The API shape of a file in `tree`; without `member` (the tree, shared by a viewer kind) without
 * the member's fields and the Kenntnisnahme.
 */
export function toStoredFile(file: FileRecord, tree: FilesTree, member?: MemberFileFields): StoredFile {
  const folder = tree.byId.get(file.folder_id);
  const names = roleNames(file.roles);
  const stored: StoredFile = {
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
    size: megabytes(file.size_bytes),
    size_bytes: file.size_bytes,
    updated_at: file.updated_at,
    archived: tree.isArchived(file.folder_id),
  };
  if (!member) return stored;
  stored.new = member.new;
  stored.acknowledgement_required = file.acknowledgement_required === 1;
  stored.acknowledgement_due = file.acknowledgement_due;
  if (member.acknowledgedAt !== undefined) stored.acknowledged_at = member.acknowledgedAt;
  return stored;
}
