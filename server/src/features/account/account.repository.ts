import type { Kysely } from 'kysely';
import type { Database, UserUpdate } from '../../db/schema.ts';

/** E-mail addresses are stored lower case, so equality is a case-insensitive comparison. */
export async function emailTakenByOther(
  db: Kysely<Database>,
  email: string,
  userId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .where('id', '!=', userId)
    .executeTakeFirst();
  return Boolean(row);
}

export async function updateUser(db: Kysely<Database>, userId: number, changes: UserUpdate): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', userId).execute();
}

/**
 * Whether a write failed on a unique index (two accounts taking one address at the same time).
 * The drivers report it differently: better-sqlite3 by its own code, PostgreSQL by SQLSTATE 23505.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
