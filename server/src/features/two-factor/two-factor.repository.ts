import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { hashRecoveryCode } from './recovery-codes.ts';

type Queryable = Kysely<Database> | Transaction<Database>;

/** What the second step needs of an account. */
export function secondFactorOf(db: Queryable, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'two_factor_enabled', 'totp_secret', 'totp_pending', 'totp_last_step'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** The account's passkeys as the WebAuthn checks need them. */
export function passkeysForCheck(db: Queryable, userId: number) {
  return db
    .selectFrom('passkeys')
    .select(['id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** After a sign-in with it: the authenticator's counter and when it was last used. */
export async function markPasskeyUsed(db: Queryable, id: number, counter: number, now: string) {
  await db.updateTable('passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
}

export async function passkeyCount(db: Queryable, userId: number): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * `login`: the interim token between password and second factor; `register`: a passkey being
 * added; `confirm`: a passkey confirming that the second factor is turned off.
 */
export type ChallengePurpose = 'login' | 'register' | 'confirm';

export async function insertChallenge(
  db: Queryable,
  row: {
    userId: number;
    purpose: ChallengePurpose;
    tokenHash: string;
    now: string;
    expiresAt: string;
    webauthnChallenge?: string;
  },
): Promise<void> {
  await db
    .insertInto('login_challenges')
    .values({
      user_id: row.userId,
      purpose: row.purpose,
      token_hash: row.tokenHash,
      webauthn_challenge: row.webauthnChallenge ?? null,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** A usable challenge: not used, not expired. */
export function findChallenge(db: Queryable, tokenHash: string, purpose: ChallengePurpose, now: string) {
  return db
    .selectFrom('login_challenges')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The newest usable passkey challenge of the account for `purpose` (one prompt at a time). */
export function findUserChallenge(db: Queryable, userId: number, purpose: ChallengePurpose, now: string) {
  return db
    .selectFrom('login_challenges')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Removes the account's open challenges of `purpose` (a new prompt replaces an old one). */
export async function dropUserChallenges(db: Queryable, userId: number, purpose: ChallengePurpose) {
  await db
    .deleteFrom('login_challenges')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .execute();
}

/** The passkey prompt's challenge, kept with the sign-in's interim token. */
export async function setWebauthnChallenge(db: Queryable, id: number, challenge: string): Promise<void> {
  await db
    .updateTable('login_challenges')
    .set({ webauthn_challenge: challenge })
    .where('id', '=', id)
    .execute();
}

/** Marks it used; false when another request used it first (single use, decided atomically). */
export async function consumeChallenge(db: Queryable, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('login_challenges')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Accepts a TOTP step only when it is newer than the last accepted one, atomically: two requests
 * with the same code cannot both pass.
 */
export async function advanceTotpStep(db: Queryable, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Uses a recovery code once; false when it is unknown or spent. */
export async function consumeRecoveryCode(db: Queryable, userId: number, codeHash: string, now: string) {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(db: Queryable, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function findTrustedDevice(db: Queryable, userId: number, tokenHash: string, now: string) {
  return db
    .selectFrom('trusted_devices')
    .select('id')
    .where('user_id', '=', userId)
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function insertTrustedDevice(
  db: Queryable,
  row: { userId: number; tokenHash: string; label: string; now: string; expiresAt: string },
) {
  await db
    .insertInto('trusted_devices')
    .values({
      user_id: row.userId,
      token_hash: row.tokenHash,
      label: row.label,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
}

export async function deleteTrustedDevices(db: Queryable, userId: number): Promise<void> {
  await db.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
}

/** Whom the lock of the second step is mailed to. */
export function mailRecipient(db: Queryable, userId: number) {
  return db
    .selectFrom('users')
    .select(['title', 'firstname', 'lastname', 'email'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/** Everything of the second factor of one account (turning off, a reset by the office or the CLI). */
export async function clearSecondFactor(db: Queryable, userId: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: null, totp_pending: null, totp_last_step: null, two_factor_enabled: 0 })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
  await db.deleteFrom('trusted_devices').where('user_id', '=', userId).execute();
}

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
