import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { FileRowFilter } from '../../policies/files.policy.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface NewCandidate {
  id: number;
  folder_id: number;
  content_at: string;
}

/**
 * Documents the viewer may see (`visible`, the files policy's filter) whose content is newer than
 * `since`, newest first: one indexed query, small for anyone who reads or marks read.
 */
export async function contentSince(
  db: Executor,
  since: string,
  visible: FileRowFilter | undefined,
): Promise<NewCandidate[]> {
  let query = db
    .selectFrom('files')
    .select(['files.id', 'files.folder_id', 'files.content_at'])
    .where('files.content_at', '>', since);
  if (visible) query = query.where(visible);
  const rows = await query.orderBy('files.content_at', 'desc').orderBy('files.id', 'desc').execute();
  return rows as NewCandidate[];
}

/** A member's reads newer than `since` (older ones cannot make anything "not new"). */
export async function readsSince(db: Executor, userId: number, since: string): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('file_reads')
    .select(['file_id', 'read_at'])
    .where('user_id', '=', userId)
    .where('read_at', '>', since)
    .execute();
  return new Map(rows.map((row) => [row.file_id, row.read_at]));
}

/**
 * The member received the document's content now. The row changes only when it was older than
 * the content, so a viewer's many range requests write once per content. Whether it changed.
 */
export async function recordOpen(
  db: Executor,
  userId: number,
  file: { id: number; contentAt: string },
  at: string,
): Promise<boolean> {
  const result = await db
    .insertInto('file_reads')
    .values({ user_id: userId, file_id: file.id, read_at: at, opened_at: at })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'file_id'])
        .doUpdateSet({ read_at: at, opened_at: at })
        .where((eb) =>
          eb.or([
            eb('file_reads.read_at', '<', file.contentAt),
            eb('file_reads.opened_at', 'is', null),
            eb('file_reads.opened_at', '<', file.contentAt),
          ]),
        ),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Marks documents read without opening them ("Alle als gelesen markieren" for a folder). */
export async function recordReads(db: Executor, userId: number, fileIds: readonly number[], at: string) {
  for (let i = 0; i < fileIds.length; i += 500) {
    await db
      .insertInto('file_reads')
      .values(fileIds.slice(i, i + 500).map((fileId) => ({ user_id: userId, file_id: fileId, read_at: at })))
      .onConflict((oc) => oc.columns(['user_id', 'file_id']).doUpdateSet({ read_at: at }))
      .execute();
  }
}

/** Every instance sees the member's new read state on their next request (the cache key). */
export async function raiseReadVersion(db: Executor, userId: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ news_version: sql<number>`news_version + 1` })
    .where('id', '=', userId)
    .execute();
}

/**
 * "Alle als gelesen markieren" for everything: the watermark moves to `at`. Reads before it say
 * nothing more and go, except those that record an opening (a Kenntnisnahme asks for one).
 */
export async function markEverythingRead(db: Executor, userId: number, at: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ news_read_at: at, news_version: sql<number>`news_version + 1` })
    .where('id', '=', userId)
    .execute();
  await db
    .deleteFrom('file_reads')
    .where('user_id', '=', userId)
    .where('opened_at', 'is', null)
    .where('read_at', '<=', at)
    .execute();
}

/** When the member last received the document's content, or undefined. */
export async function openedAt(db: Executor, userId: number, fileId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('file_reads')
    .select('opened_at')
    .where('user_id', '=', userId)
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return row?.opened_at ?? undefined;
}
