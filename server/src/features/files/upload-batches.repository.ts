import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, UploadBatchesTable } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;
export type UploadBatchRow = Selectable<UploadBatchesTable>;

export function findBatch(db: Executor, id: string): Promise<UploadBatchRow | undefined> {
  return db.selectFrom('upload_batches').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Adds one document to the batch, creating the batch with its first one; a document arriving after
 * the completion opens it again, for a mail of its own. False when another admin began it. The
 * update takes the row's lock: a completion running at the same time waits for this transaction
 * (and then finds its notices) or this one for it (and then opens the batch again). On PostgreSQL
 * a concurrent first insert of the same id waits for the other transaction and then does nothing.
 */
export async function joinBatch(
  trx: Transaction<Database>,
  batch: { id: string; userId: number; at: string },
): Promise<boolean> {
  await trx
    .insertInto('upload_batches')
    .values({
      id: batch.id,
      created_by: batch.userId,
      created_at: batch.at,
      last_file_at: batch.at,
      files: 0,
      completed_at: null,
      mails: 0,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const result = await trx
    .updateTable('upload_batches')
    .set((eb) => ({ last_file_at: batch.at, files: eb('files', '+', 1), completed_at: null }))
    .where('id', '=', batch.id)
    .where('created_by', '=', batch.userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function addNotices(
  trx: Transaction<Database>,
  rows: readonly { batch_id: string; user_id: number; file_id: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('upload_batch_notices')
    .values([...rows])
    .onConflict((oc) => oc.columns(['batch_id', 'user_id', 'file_id']).doNothing())
    .execute();
}

/**
 * Claims the completion: true for exactly one caller. On PostgreSQL a concurrent claim waits for
 * this transaction and then finds `completed_at` set.
 */
export async function claimBatch(trx: Transaction<Database>, id: string, at: string): Promise<boolean> {
  const result = await trx
    .updateTable('upload_batches')
    .set({ completed_at: at })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Counts the mails a completion composed (a batch opened again by a late document adds up). */
export async function addMails(trx: Transaction<Database>, id: string, mails: number): Promise<void> {
  await trx
    .updateTable('upload_batches')
    .set((eb) => ({ mails: eb('mails', '+', mails) }))
    .where('id', '=', id)
    .execute();
}

/** Removes and returns what the batch owes. */
export async function takeNotices(
  trx: Transaction<Database>,
  batchId: string,
): Promise<{ user_id: number; file_id: number }[]> {
  const rows = await trx
    .selectFrom('upload_batch_notices')
    .select(['user_id', 'file_id'])
    .where('batch_id', '=', batchId)
    .orderBy('user_id')
    .orderBy('file_id')
    .execute();
  await trx.deleteFrom('upload_batch_notices').where('batch_id', '=', batchId).execute();
  return rows;
}

/** Open batches whose last document arrived before `before`, oldest first. */
export async function quietBatches(db: Executor, before: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('upload_batches')
    .select('id')
    .where('completed_at', 'is', null)
    .where('last_file_at', '<', before)
    .orderBy('last_file_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Forgets batches completed before `before` (their notices went with the completion). */
export async function deleteCompletedBefore(db: Executor, before: string): Promise<number> {
  const result = await db
    .deleteFrom('upload_batches')
    .where('completed_at', 'is not', null)
    .where('completed_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
