import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { membersWithRoles, type MemberRecord } from '../../db/member-lists.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Every account with its roles: who can see a document is decided by the policies in memory. */
export function allMembers(db: Executor): Promise<MemberRecord[]> {
  return membersWithRoles(db);
}

/** The member's confirmations of these documents, by document. */
export async function confirmationsOf(
  db: Executor,
  userId: number,
  fileIds: readonly number[],
): Promise<Map<number, string>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('acknowledgements')
    .select(['file_id', 'confirmed_at'])
    .where('user_id', '=', userId)
    .where('file_id', 'in', [...fileIds])
    .execute();
  return new Map(rows.map((row) => [row.file_id, row.confirmed_at]));
}

/** All confirmations of one document, by member. */
export async function confirmationsTo(db: Executor, fileId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('acknowledgements')
    .select(['user_id', 'confirmed_at'])
    .where('file_id', '=', fileId)
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.confirmed_at]));
}

/** Records a confirmation; one of an earlier request is replaced (the new one counts). */
export async function saveConfirmation(db: Executor, fileId: number, userId: number, at: string) {
  await db
    .insertInto('acknowledgements')
    .values({ file_id: fileId, user_id: userId, confirmed_at: at })
    .onConflict((oc) => oc.columns(['file_id', 'user_id']).doUpdateSet({ confirmed_at: at }))
    .execute();
}

export async function reminderSentAt(db: Executor, fileId: number): Promise<string | null> {
  const row = await db
    .selectFrom('acknowledgement_reminders')
    .select('sent_at')
    .where('file_id', '=', fileId)
    .executeTakeFirst();
  return row?.sent_at ?? null;
}

/**
 * Takes the reminder slot of a document atomically: written only when the last reminder is
 * older than `before`, so of two admins (also on two instances) one sends. Whether it was taken.
 */
export async function takeReminderSlot(db: Executor, fileId: number, at: string, before: string) {
  const result = await db
    .insertInto('acknowledgement_reminders')
    .values({ file_id: fileId, sent_at: at })
    .onConflict((oc) =>
      oc
        .column('file_id')
        .doUpdateSet({ sent_at: at })
        .where('acknowledgement_reminders.sent_at', '<=', before),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
