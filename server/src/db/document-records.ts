/*
 * The document area's records as every feature reads them (decision 178): folders and documents
 * with their roles, files per folder, the tree's version and the lock every writer of the tree
 * takes. The folders and files features write them in their repositories; the read model
 * (features/explorer/) caches them.
 */
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
  type Transaction,
} from 'kysely';
import type { Database, FileRow } from './schema.ts';
import type { Dialect } from './dialect.ts';
import { groupRoles } from './role-links.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** A rule from policies/ over document rows (`fileFilter`, `fileRoleFilter`). */
type FileRowFilter = (eb: ExpressionBuilder<Database, 'files'>) => Expression<SqlBool>;

export interface RoleRow {
  id: number;
  name: string;
}

export interface FolderRecord {
  id: number;
  parent_id: number | null;
  title: string;
  breadcrumb: string;
  created_at: string;
  updated_at: string;
  /** Ordered by role id. */
  roles: RoleRow[];
  /**
   * Own flag: the folder of an ended Amtsperiode (`committee_terms.archived` and not `reopened`,
   * decision 189). Everything below it is read-only too: ask `FolderTree.isArchived`.
   */
  archived: boolean;
}

/**
 * A document as the contents of a folder. The folder tree, listings and counts read documents here;
 * the files feature writes them (files.repository.ts).
 */
export type FileRecord = FileRow & { roles: RoleRow[] };

/**
 * Every folder with its roles and its archive flag, in one query: the tree is assembled in memory.
 * A change to `committee_terms` raises the tree version like a change to the folders (its triggers,
 * migration 0016), so the read cache sees an archived or reopened term on the next request.
 */
export async function loadFolders(db: Executor): Promise<FolderRecord[]> {
  const rows = await db
    .selectFrom('folders')
    .leftJoin('folder_roles', 'folder_roles.folder_id', 'folders.id')
    .leftJoin('roles', 'roles.id', 'folder_roles.role_id')
    .select((eb) => [
      'folders.id',
      'folders.parent_id',
      'folders.title',
      'folders.breadcrumb',
      'folders.created_at',
      'folders.updated_at',
      'roles.id as role_id',
      'roles.name as role_name',
      // The folder of an ended Amtsperiode that no Super-Admin has reopened (decision 189).
      eb(
        'folders.id',
        'in',
        eb
          .selectFrom('committee_terms')
          .select('committee_terms.folder_id')
          .where('committee_terms.archived', '=', 1)
          .where('committee_terms.reopened', '=', 0)
          .where('committee_terms.folder_id', 'is not', null),
      ).as('archived'),
    ])
    .orderBy('folders.id')
    .orderBy('roles.id')
    .execute();
  // SQLite answers the IN as 0 or 1, PostgreSQL as a boolean.
  return groupRoles(rows).map((folder) => ({ ...folder, archived: Boolean(folder.archived) }));
}

/**
 * Number of files per folder, in one grouped query. With `visible` only the files it lets
 * through count (a rule from policies/); undefined counts every file.
 */
export async function countFilesByFolder(
  db: Executor,
  visible?: FileRowFilter,
): Promise<Map<number, number>> {
  let query = db
    .selectFrom('files')
    .select(['files.folder_id', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('files.folder_id');
  if (visible) query = query.where(visible);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.folder_id, Number(row.count)]));
}

export interface FileFilter {
  id?: number;
  /** These documents (at most 1000). */
  ids?: readonly number[];
  /** Only documents that ask for a Kenntnisnahme (decision 131). */
  acknowledgementRequired?: boolean;
  downloadKey?: string;
  folderId?: number;
  /** Only the files this rule from policies/ lets through. */
  visible?: FileRowFilter;
  /** Newest (last changed) first; otherwise by id. */
  newest?: boolean;
  /** At most this many. */
  limit?: number;
}

/**
 * Files with their roles in two queries (files, then the roles of exactly those files), however
 * many there are.
 */
export async function loadFiles(db: Executor, filter: FileFilter = {}): Promise<FileRecord[]> {
  let query = db.selectFrom('files').selectAll('files');
  if (filter.id !== undefined) query = query.where('files.id', '=', filter.id);
  if (filter.ids !== undefined) {
    if (filter.ids.length === 0) return [];
    query = query.where('files.id', 'in', [...filter.ids]);
  }
  if (filter.acknowledgementRequired) query = query.where('files.acknowledgement_required', '=', 1);
  if (filter.downloadKey !== undefined) query = query.where('files.download_key', '=', filter.downloadKey);
  if (filter.folderId !== undefined) query = query.where('files.folder_id', '=', filter.folderId);
  if (filter.visible) query = query.where(filter.visible);
  query = filter.newest
    ? query.orderBy('files.updated_at', 'desc').orderBy('files.id', 'desc')
    : query.orderBy('files.id');
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  const rows = await query.execute();
  if (rows.length === 0) return [];

  let rolesQuery = db
    .selectFrom('file_roles')
    .innerJoin('roles', 'roles.id', 'file_roles.role_id')
    .select(['file_roles.file_id', 'roles.id', 'roles.name'])
    .orderBy('roles.id');
  // A folder's or a single file's roles by a subquery; a limited list by its ids (at most 1000).
  if (filter.folderId !== undefined && filter.limit === undefined && filter.id === undefined) {
    const folderId = filter.folderId;
    rolesQuery = rolesQuery.where('file_roles.file_id', 'in', (eb) =>
      eb.selectFrom('files').select('files.id').where('files.folder_id', '=', folderId),
    );
  } else if (rows.length <= 1000) {
    rolesQuery = rolesQuery.where(
      'file_roles.file_id',
      'in',
      rows.map((row) => row.id),
    );
  }
  const roleRows = await rolesQuery.execute();
  const byFile = new Map<number, RoleRow[]>();
  for (const row of roleRows) {
    const list = byFile.get(row.file_id) ?? [];
    list.push({ id: row.id, name: row.name });
    byFile.set(row.file_id, list);
  }
  return rows.map((row) => ({ ...row, size_bytes: Number(row.size_bytes), roles: byFile.get(row.id) ?? [] }));
}

/**
 * Serialises changes of the folder tree (create, rename, move, delete, uploads into a folder), so
 * two concurrent moves can never build a cycle. PostgreSQL: a transaction-scoped advisory lock.
 * SQLite needs none: it has a single writer and Kysely runs its transactions one at a time.
 */
export async function lockFolderTree(trx: Transaction<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(7301)`.execute(trx);
}

/**
 * Raised by the database on every change to folders, files and their roles (migration 0002) and to
 * the Amtsperioden, whose folders may be archived (migration 0016).
 */
export async function readTreeVersion(db: Executor): Promise<string> {
  const row = await db
    .selectFrom('change_counters')
    .select('value')
    .where('name', '=', 'tree')
    .executeTakeFirstOrThrow();
  return String(row.value);
}
