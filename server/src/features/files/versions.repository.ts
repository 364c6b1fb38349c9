import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, FileRow, FileVersionsTable } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;
export type VersionRow = Selectable<FileVersionsTable>;

/** What a document's content is, as its row stores it. */
export type ContentColumns = Pick<FileRow, 'format' | 'mime_type' | 'size_bytes' | 'sha256' | 'storage_key'>;

/**
 * The columns of a document's next current content (decision 125): one version up, with when, by
 * whom and (for a restore) from which version.
 */
export function nextContentColumns(
  file: Pick<FileRow, 'version'>,
  content: ContentColumns,
  change: { at: string; byLabel: string | null; restoredFrom: number | null },
) {
  return {
    ...content,
    version: file.version + 1,
    content_at: change.at,
    content_by_label: change.byLabel,
    restored_from: change.restoredFrom,
  };
}

/**
 * Keeps a document's current content as an old version, in the transaction that replaces it
 * (decision 125): its stored object stays and now belongs to the version row.
 */
export async function keepAsVersion(
  trx: Transaction<Database>,
  file: FileRow,
  replaced: { at: string; byLabel: string | null },
): Promise<void> {
  await trx
    .insertInto('file_versions')
    .values({
      file_id: file.id,
      version: file.version,
      format: file.format,
      mime_type: file.mime_type,
      size_bytes: Number(file.size_bytes),
      sha256: file.sha256,
      storage_key: file.storage_key,
      content_at: file.content_at ?? file.updated_at,
      content_by_label: file.content_by_label,
      restored_from: file.restored_from,
      replaced_at: replaced.at,
      replaced_by_label: replaced.byLabel,
    })
    .execute();
}

/** Old versions, newest first. */
export async function listVersions(db: Executor, fileId: number): Promise<VersionRow[]> {
  const rows = await db
    .selectFrom('file_versions')
    .selectAll()
    .where('file_id', '=', fileId)
    .orderBy('version', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, size_bytes: Number(row.size_bytes) }));
}

export async function findVersion(
  db: Executor,
  fileId: number,
  version: number,
): Promise<VersionRow | undefined> {
  const row = await db
    .selectFrom('file_versions')
    .selectAll()
    .where('file_id', '=', fileId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row && { ...row, size_bytes: Number(row.size_bytes) };
}

/**
 * Old versions beyond the newest `keep` of each document, oldest first, at most `limit` (the
 * daily maintenance removes them in batches).
 */
export async function surplusVersions(db: Executor, keep: number, limit: number) {
  return db
    .selectFrom('file_versions as v')
    .innerJoin('files', 'files.id', 'v.file_id')
    .select([
      'v.id',
      'v.file_id',
      'v.version',
      'v.storage_key',
      'v.size_bytes',
      'files.title',
      'files.format',
    ])
    .where(
      (eb) =>
        eb
          .selectFrom('file_versions as newer')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .whereRef('newer.file_id', '=', 'v.file_id')
          .whereRef('newer.version', '>', 'v.version'),
      '>=',
      keep,
    )
    .orderBy('v.id')
    .limit(limit)
    .execute();
}
