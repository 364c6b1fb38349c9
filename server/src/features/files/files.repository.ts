import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, FilesTable } from '../../db/schema.ts';
import type { FileRowFilter } from '../../policies/files.policy.ts';
import type { FileRecord } from '../../db/document-records.ts';
import { groupRoles, replaceRoleLinks } from '../../db/role-links.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * One file with its roles in a single query, found by id or download key. `visible` narrows it
 * in the same query, so a file the viewer may not see costs exactly what a missing one does.
 */
export async function findFile(
  db: Executor,
  by: { id: number } | { downloadKey: string },
  visible?: FileRowFilter,
): Promise<FileRecord | undefined> {
  let match = db.selectFrom('files').select('files.id');
  match =
    'id' in by ? match.where('files.id', '=', by.id) : match.where('files.download_key', '=', by.downloadKey);
  if (visible) match = match.where(visible);
  const rows = await db
    .selectFrom('files')
    .leftJoin('file_roles', 'file_roles.file_id', 'files.id')
    .leftJoin('roles', 'roles.id', 'file_roles.role_id')
    .selectAll('files')
    .select(['roles.id as role_id', 'roles.name as role_name'])
    .where('files.id', 'in', match)
    .orderBy('roles.id')
    .execute();
  const [file] = groupRoles(rows);
  return file && { ...file, size_bytes: Number(file.size_bytes) };
}

export async function insertFile(db: Executor, row: Insertable<FilesTable>): Promise<number> {
  const inserted = await db.insertInto('files').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateFile(db: Executor, id: number, patch: Updateable<FilesTable>): Promise<void> {
  await db.updateTable('files').set(patch).where('id', '=', id).execute();
}

export const setFileRoles = (db: Executor, fileId: number, roleIds: readonly number[]) =>
  replaceRoleLinks(db, 'file_roles', fileId, roleIds);
