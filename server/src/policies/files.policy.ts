import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { canSeeFolder, type FolderNode, type FolderTree } from './folders.policy.ts';
import { sharesRole, type Viewer } from './principal.ts';
import { roleFilter } from './role-filter.ts';

/** A condition on `files` rows, used in the query that finds them. */
export type FileRowFilter = (eb: ExpressionBuilder<Database, 'files'>) => Expression<SqlBool>;

/** product.md P5: a file is visible when its folder is and it shares a role with the viewer. */
export function canSeeFile(
  tree: FolderTree<FolderNode>,
  file: { folder_id: number; roles: readonly { id: number }[] },
): boolean {
  if (!canSeeFolder(tree, file.folder_id)) return false;
  return tree.viewer.isAdmin || sharesRole(file.roles, tree.viewer);
}

/**
 * The role half of `canSeeFile` as SQL; undefined for Admins, who see every file. For counts per
 * folder, whose folders the tree decides. A query that finds one file takes `fileFilter`, so a
 * file hidden by its folder returns no row, as a missing one (decision 150).
 */
export function fileRoleFilter(viewer: Viewer): FileRowFilter | undefined {
  return roleFilter<'files'>(viewer, (eb, roleIds) =>
    eb.exists(
      eb
        .selectFrom('file_roles')
        .select('file_roles.file_id')
        .whereRef('file_roles.file_id', '=', 'files.id')
        .where('file_roles.role_id', 'in', roleIds),
    ),
  );
}

/**
 * `canSeeFile` as SQL: the file lies in one of the folders the viewer's tree shows and shares a
 * role with the viewer; undefined for Admins, who see every file.
 */
export function fileFilter(tree: FolderTree<FolderNode>): FileRowFilter | undefined {
  const byRole = fileRoleFilter(tree.viewer);
  if (!byRole) return undefined;
  const folderIds = [...tree.visible];
  return (eb) =>
    folderIds.length === 0
      ? sql<SqlBool>`1 = 0`
      : eb.and([eb('files.folder_id', 'in', folderIds), byRole(eb)]);
}

/**
 * Who a Kenntnisnahme asks (decision 131): everyone who sees the document through their roles.
 * Administrators see every document; they are asked only where a role of theirs sees it too.
 */
export function seesFileAsMember(
  treeOf: (viewer: Viewer) => FolderTree<FolderNode>,
  file: { folder_id: number; roles: readonly { id: number }[] },
  roles: readonly { id: number }[],
): boolean {
  const viewer: Viewer = { isAdmin: false, roleIds: new Set(roles.map((role) => role.id)) };
  return canSeeFile(treeOf(viewer), file);
}
