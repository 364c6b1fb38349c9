import type { Kysely, Transaction } from 'kysely';
import { groupRoles } from '../../db/role-links.ts';
import type { Database } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface MemberRecord {
  id: number;
  title: string;
  firstname: string;
  lastname: string;
  email: string;
  roles: { id: number; name: string }[];
  /** Has set a password (an invitation not yet accepted cannot confirm anything). */
  active: boolean;
}

/** Every account with its roles: who can see a document is decided by the policies in memory. */
export async function allMembers(db: Executor): Promise<MemberRecord[]> {
  const rows = await db
    .selectFrom('users')
    .leftJoin('user_roles', 'user_roles.user_id', 'users.id')
    .leftJoin('roles', 'roles.id', 'user_roles.role_id')
    .select([
      'users.id',
      'users.title',
      'users.firstname',
      'users.lastname',
      'users.email',
      'users.password_hash',
      'roles.id as role_id',
      'roles.name as role_name',
    ])
    .orderBy('users.id')
    .orderBy('roles.id')
    .execute();
  return groupRoles(rows).map(({ password_hash, ...user }) => ({ ...user, active: password_hash !== null }));
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
