import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { markUnusedLinksUsed } from '../../db/password-links.ts';

/** A transaction is a Kysely instance too: every function here works inside or outside one. */
type Queryable = Kysely<Database>;

export interface UserCredentials {
  id: number;
  title: string;
  firstname: string;
  lastname: string;
  email: string;
  password_hash: string | null;
  /** 1 while a second factor is set up: the sign-in needs its second step (decision 126). */
  two_factor_enabled: number;
}

const userColumns = [
  'id',
  'title',
  'firstname',
  'lastname',
  'email',
  'password_hash',
  'two_factor_enabled',
] as const;

/** E-mail addresses are stored lower case; callers pass the address lower case too. */
export function findUserByEmail(db: Queryable, email: string): Promise<UserCredentials | undefined> {
  return db.selectFrom('users').select(userColumns).where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Queryable, id: number): Promise<UserCredentials | undefined> {
  return db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();
}

export async function roleNamesOf(db: Queryable, userId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('roles.name')
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.id')
    .execute();
  return rows.map((row) => row.name);
}

export async function insertSession(
  db: Queryable,
  session: { userId: number; tokenHash: string; now: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      user_id: session.userId,
      token_hash: session.tokenHash,
      created_at: session.now,
      last_seen_at: session.now,
    })
    .execute();
}

export async function deleteSession(db: Queryable, sessionId: number): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Ends every session of a user, or every one but `exceptSessionId`. */
export async function deleteSessionsOfUser(
  db: Queryable,
  userId: number,
  exceptSessionId?: number,
): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}

export async function deleteExpiredSessionsOfUser(
  db: Queryable,
  userId: number,
  cutoff: { lastSeenBefore: string; createdBefore: string },
): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where((eb) =>
      eb.or([eb('last_seen_at', '<', cutoff.lastSeenBefore), eb('created_at', '<', cutoff.createdBefore)]),
    )
    .execute();
}

/** The password link with this hash, whatever its state; the service decides whether it still works. */
export function findPasswordToken(db: Queryable, tokenHash: string) {
  return db
    .selectFrom('password_tokens')
    .select(['id', 'user_id', 'purpose', 'expires_at', 'used_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Marks one link used, only if it still is unused: of two concurrent redemptions exactly one
 * gets `true`. Any other open link of the user is closed as well.
 */
export async function consumePasswordToken(
  db: Queryable,
  token: { id: number; userId: number },
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('password_tokens')
    .set({ used_at: now })
    .where('id', '=', token.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return false;
  await markUnusedLinksUsed(db, token.userId, now);
  return true;
}

export async function setPasswordHash(
  db: Queryable,
  userId: number,
  passwordHash: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
