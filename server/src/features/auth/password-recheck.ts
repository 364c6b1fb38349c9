import type { AppContext } from '../../context.ts';
import { HOUR } from '../../clock.ts';
import { AppError, invalidField } from '../../errors.ts';
import { composeMail } from '../../mail/compose.ts';
import { enqueueMail, type OutgoingMail } from '../../mail/outbox.ts';
import { HashingBusyError } from '../../credentials/password-queue.ts';
import { verifyPassword } from '../../credentials/passwords.ts';
import type { Actor } from '../../plugins/auth.ts';
import * as repo from './auth.repository.ts';
import { claimSignInAttempt, recordFailedSignIn, signInBusy } from './sign-in-limits.ts';

/** Where the refusal of a wrong password is shown: the request's field and its German message. */
export interface RecheckField {
  field: string;
  message: string;
}

function recheckLockedMail(
  user: { title: string; lastname: string; email: string },
  ip: string,
): OutgoingMail {
  return composeMail({
    to: user.email,
    subject: 'Passwort zu oft falsch eingegeben – Gremienportal',
    recipient: user,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          'in einer angemeldeten Sitzung Ihres Kontos wurde Ihr Passwort zu oft falsch eingegeben, als es zur Bestätigung einer Änderung abgefragt wurde. Diese Sitzung wurde deshalb beendet.',
        ],
      },
      { kind: 'facts', rows: [['IP-Adresse', ip]] },
      {
        kind: 'paragraph',
        lines: [
          'Wenn Sie das nicht selbst waren, ändern Sie bitte Ihr Passwort und wenden Sie sich an die Geschäftsstelle.',
        ],
      },
    ],
  });
}

/**
 * Checks the signed-in member's password again before a change that needs it (decision 147):
 * turning the second factor on or off, a new password, and every later feature that asks for it.
 * Each check counts against the sign-in's limits of the account and client (sign-in-limits.ts),
 * so a stolen session guesses no faster than a sign-in, and a wrong one is recorded like a failed
 * sign-in. Over a limit the session that asked ends (the owner's other devices stay signed in)
 * and the member is mailed, at most once an hour.
 */
export async function recheckPassword(
  ctx: AppContext,
  actor: Actor,
  password: string | undefined,
  refusal: RecheckField,
): Promise<void> {
  const { principal, ip } = actor;
  const client = { ip };
  let attempt;
  try {
    attempt = await claimSignInAttempt(ctx, principal.email, client);
  } catch (error) {
    if (error instanceof AppError && error.code === 'too_many_requests') await lockOut(ctx, actor);
    throw error;
  }
  const user = await repo.findUserById(ctx.db.kysely, principal.id);
  let matches: boolean;
  try {
    matches = Boolean(
      user?.password_hash && password && (await verifyPassword(user.password_hash, password)),
    );
  } catch (error) {
    if (!(error instanceof HashingBusyError)) throw error;
    await attempt.notChecked();
    throw signInBusy(error.retryAfterMs);
  }
  if (!matches) {
    await attempt.failed();
    await recordFailedSignIn(ctx, {
      email: principal.email,
      user: { id: principal.id, email: principal.email },
      client,
    });
    throw invalidField(refusal.field, refusal.message);
  }
  await attempt.succeeded();
}

async function lockOut(ctx: AppContext, { principal, ip }: Actor): Promise<void> {
  // An API-Schlüssel never reaches a route that asks for the password (api-key.policy.ts).
  if (principal.sessionId !== null) await repo.deleteSession(ctx.db.kysely, principal.sessionId);
  const { count } = await ctx.counters.increment(`recheck-locked-mail:${principal.id}`, HOUR);
  if (count === 1) await enqueueMail(ctx.db.kysely, ctx.clock, recheckLockedMail(principal, ip));
}
