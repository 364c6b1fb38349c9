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
