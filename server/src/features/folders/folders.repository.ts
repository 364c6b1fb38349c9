import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { Database, FoldersTable } from '../../db/schema.ts';
import { replaceRoleLinks } from '../../db/role-links.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export async function insertFolder(db: Executor, row: Insertable<FoldersTable>): Promise<number> {
  const inserted = await db.insertInto('folders').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateFolder(db: Executor, id: number, patch: Updateable<FoldersTable>): Promise<void> {
  await db.updateTable('folders').set(patch).where('id', '=', id).execute();
}

export const setFolderRoles = (db: Executor, folderId: number, roleIds: readonly number[]) =>
  replaceRoleLinks(db, 'folder_roles', folderId, roleIds);

/**
 * Replaces the first `oldPrefixLength` characters of the given folders' breadcrumbs by
 * `newPrefix`, in one statement. `substr` (1-based, counting characters) and `||` mean the same in
 * SQLite and PostgreSQL.
 */
export async function rewriteBreadcrumbs(
  db: Executor,
  folderIds: readonly number[],
  oldPrefixLength: number,
  newPrefix: string,
): Promise<void> {
  if (folderIds.length === 0) return;
  await db
    .updateTable('folders')
    .set({ breadcrumb: sql<string>`${newPrefix} || substr(breadcrumb, ${oldPrefixLength + 1})` })
    .where('id', 'in', [...folderIds])
    .execute();
}
