import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashRecoveryCode } from '../../second-factor/recovery-codes.ts';

type Queryable = Kysely<Database> | Transaction<Database>;

export async function setPendingTotp(db: Queryable, userId: number, sealed: string): Promise<void> {
  await db.updateTable('users').set({ totp_pending: sealed }).where('id', '=', userId).execute();
}

/** The pending seed becomes the active one; `step` is the confirming code's, never accepted again. */
export async function activateTotp(
  db: Queryable,
  userId: number,
  sealed: string,
  step: number,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: sealed, totp_pending: null, totp_last_step: step, two_factor_enabled: 1 })
    .where('id', '=', userId)
    .execute();
}

export async function replaceRecoveryCodes(
  db: Queryable,
  userId: number,
  codes: readonly string[],
): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(codes.map((code) => ({ user_id: userId, code_hash: hashRecoveryCode(code) })))
    .execute();
}

export function passkeysOf(db: Queryable, userId: number) {
  return db
    .selectFrom('passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

export function trustedDevicesOf(db: Queryable, userId: number, now: string) {
  return db
    .selectFrom('trusted_devices')
    .select(['id', 'label', 'created_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('id')
    .execute();
}

/** Revokes one of the account's trusted devices; false when it is not theirs or gone. */
export async function deleteTrustedDevice(db: Queryable, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('trusted_devices')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function passkeyExists(db: Queryable, credentialId: string): Promise<boolean> {
  const row = await db
    .selectFrom('passkeys')
    .select('id')
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertPasskey(
  db: Queryable,
  row: {
    userId: number;
    name: string;
    now: string;
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string | null;
  },
): Promise<number> {
  const inserted = await db
    .insertInto('passkeys')
    .values({
      user_id: row.userId,
      name: row.name,
      created_at: row.now,
      credential_id: row.credentialId,
      public_key: row.publicKey,
      counter: row.counter,
      transports: row.transports,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export async function deletePasskey(db: Queryable, userId: number, id: number): Promise<void> {
  await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).execute();
}

/** The second step is on once the account has its first second factor. */
export async function enableSecondFactor(db: Queryable, userId: number): Promise<void> {
  await db.updateTable('users').set({ two_factor_enabled: 1 }).where('id', '=', userId).execute();
}
