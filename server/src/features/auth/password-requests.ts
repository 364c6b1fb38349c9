import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Clock } from '../../clock.ts';
import { HOUR, MINUTE } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { recordAudit } from '../audit/audit-log.service.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { principalLabel } from '../../plugins/auth.ts';
import { passwordResetMail } from './auth.mails.ts';
import { issuePasswordLink } from '../../db/password-links.ts';
import { findUserByEmail } from './auth.repository.ts';

/**
 * Forgot-password requests run in two steps (decision 118). The request stores the address and
 * answers: the same single insert whether or not the address has an account, so its timing tells
 * nothing. The background worker (the mail sender's loop) then looks the address up, issues the
 * link and queues the mail, and deletes the request in the same transaction.
 */

/** A worker that died while handling a request gives it up after this long. */
const LEASE_MS = MINUTE;
/** A request that failed this often stays untouched until housekeeping removes it. */
const MAX_ATTEMPTS = 5;
const BATCH = 20;
/**
 * A request older than this is dropped without a mail (after a long outage, or in a restored
 * backup): its requester has asked again or given up, and a late mail would only surprise.
 */
const MAX_REQUEST_AGE_MS = HOUR;

export type PasswordRequestContext = Pick<AppContext, 'db' | 'clock' | 'config' | 'logger'>;

export async function enqueuePasswordRequest(
  db: Kysely<Database>,
  clock: Clock,
  request: { email: string; ip: string },
): Promise<void> {
  await db
    .insertInto('password_requests')
    .values({
      email: request.email,
      ip: request.ip,
      created_at: clock.now().toISOString(),
      attempts: 0,
      locked_until: null,
    })
    .execute();
}

/**
 * Handles every due request once and returns how many. Each is leased (`locked_until`) with a
 * conditional update first, and the transaction that mails the link deletes the request only if
 * the lease is still its own: across instances, and after a crash at any point, a request is
 * handled exactly once.
 */
export async function processPasswordRequests(ctx: PasswordRequestContext): Promise<number> {
  const k = ctx.db.kysely;
  let handled = 0;
  for (;;) {
    const now = ctx.clock.now().toISOString();
    const due = await k
      .selectFrom('password_requests')
      .select(['id', 'attempts'])
      .where('attempts', '<', MAX_ATTEMPTS)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (due.length === 0) return handled;
    for (const request of due) {
      const lease = new Date(ctx.clock.now().getTime() + LEASE_MS).toISOString();
      const taken = await k
        .updateTable('password_requests')
        .set({ locked_until: lease, attempts: request.attempts + 1 })
        .where('id', '=', request.id)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) continue;
      try {
        if (await handle(ctx, request.id, lease)) handled += 1;
      } catch (error) {
        // The lease runs out and the request is tried again; the address stays out of the log.
        ctx.logger.warn(
          { passwordRequestId: request.id, err: error },
          'Anfrage zum Zurücksetzen des Passworts nicht bearbeitet; nächster Versuch folgt',
        );
      }
    }
  }
}

async function handle(ctx: PasswordRequestContext, id: number, lease: string): Promise<boolean> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    // Deleting first claims the request for this transaction; on PostgreSQL a concurrent claim
    // (or a password change dropping it) waits for this one and then finds nothing.
    const request = await trx
      .deleteFrom('password_requests')
      .where('id', '=', id)
      .where('locked_until', '=', lease)
      .returning(['email', 'ip', 'created_at'])
      .executeTakeFirst();
    if (!request) return false;
    if (Date.parse(request.created_at) < ctx.clock.now().getTime() - MAX_REQUEST_AGE_MS) return true;
    const user = await findUserByEmail(trx, request.email);
    if (!user) return true;
    const link = await issuePasswordLink(trx, ctx, user.id, 'reset');
    await enqueueMail(trx, ctx.clock, passwordResetMail(user, link));
    await recordAudit(trx, ctx.clock, {
      actor: null,
      action: 'auth.reset_requested',
      objectType: 'user',
      objectId: user.id,
      objectLabel: principalLabel(user),
      ip: request.ip,
    });
    return true;
  });
}
