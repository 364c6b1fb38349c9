import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import { DAY, HOUR } from '../clock.ts';
import { hashToken, newToken } from '../credentials/tokens.ts';

export type PasswordTokenPurpose = 'reset' | 'invite';

const VALIDITY_MS: Record<PasswordTokenPurpose, number> = { reset: HOUR, invite: 7 * DAY };

/**
 * Issues a single-use set-password link (reset: 60 minutes, invitation: 7 days). Only the
 * token's hash is stored, and every older unused link of the user stops working.
 * Call it inside the transaction that queues the mail carrying the link.
 */
export async function issuePasswordLink(
  db: Kysely<Database> | Transaction<Database>,
  ctx: { clock: Clock; config: Pick<Config, 'PUBLIC_URL'> },
  userId: number,
  purpose: PasswordTokenPurpose,
): Promise<string> {
  const now = ctx.clock.now();
  await markUnusedLinksUsed(db, userId, now.toISOString());
  const token = newToken();
  await db
    .insertInto('password_tokens')
    .values({
      user_id: userId,
      purpose,
      token_hash: hashToken(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + VALIDITY_MS[purpose]).toISOString(),
      used_at: null,
    })
    .execute();
  const params = new URLSearchParams({ id: String(userId), token });
  // An invitation opens the welcome page, a reset the page the specification names (decision 176).
  const page = purpose === 'invite' ? 'willkommen' : 'reset-password';
  return `${ctx.config.PUBLIC_URL}/${page}?${params.toString()}`;
}

/**
 * Makes every unused set-password link of the user worthless and drops the forgot-password
 * requests still waiting for the address (`email`: the address before any change), so that no
 * link asked for before a change of password or address works, or is even mailed, after it.
 * Call it in the transaction that makes the change.
 */
export async function revokePasswordLinks(
  db: Kysely<Database> | Transaction<Database>,
  user: { id: number; email: string },
  now: string,
): Promise<void> {
  // Requests first: on PostgreSQL a worker handling one right now holds its row, so this waits
  // for the worker to commit, and the link it issued is then revoked below.
  await db.deleteFrom('password_requests').where('email', '=', user.email).execute();
  await markUnusedLinksUsed(db, user.id, now);
}

/** Every unused set-password link of the user counts as used from `now` on: none of them works. */
export async function markUnusedLinksUsed(
  db: Kysely<Database> | Transaction<Database>,
  userId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('password_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
