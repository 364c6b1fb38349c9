import type { Kysely } from 'kysely';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  INVITATION_ACCEPTED_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  PASSWORD_RESET_SUCCESS_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
  type ForgotPasswordBody,
  type LoginBody,
  type LoginResponse,
  type PasswordResetBody,
} from '@gremienportal/contracts/auth';
import { msg } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { HOUR } from '../../clock.ts';
import { AppError, invalidField } from '../../errors.ts';
import { recordOwnAccountAudit } from '../audit/audit-log.service.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../credentials/passwords.ts';
import { HashingBusyError } from '../../credentials/password-queue.ts';
import type { Principal } from '../../policies/principal.ts';
import { hashToken } from '../../credentials/tokens.ts';
import { enqueuePasswordRequest } from './password-requests.ts';
import { forgetTrustedDevices, secondFactorService } from '../two-factor/second-factor.service.ts';
import { startSession } from './start-session.ts';
import {
  TWO_FACTOR_MESSAGES,
  type LoginResult,
  type PasswordResetResult,
  type TwoFactorBody,
} from '@gremienportal/contracts/two-factor';
import * as repo from './auth.repository.ts';
import { claimSignInAttempt, recordFailedSignIn, signInBusy, type Client } from './sign-in-limits.ts';

// Part of this service's interface: routes and the account feature describe the caller with it.
export type { Client } from './sign-in-limits.ts';

/** Reset mails per hour for one address from one client, and for one address in all. */
const RESET_REQUESTS_PER_CLIENT = 5;
const RESET_REQUESTS_PER_ADDRESS = 10;

const loginFailed = () => new AppError('unauthenticated', LOGIN_FAILED_MESSAGE);
const resetTokenInvalid = () =>
  new AppError('validation', RESET_TOKEN_INVALID_MESSAGE, { token: [RESET_TOKEN_INVALID_MESSAGE] });

/** The password must not be the account's own e-mail address (product.md P8.2). */
export function refuseEmailAsPassword(password: string, email: string): void {
  if (password.trim().toLowerCase() === email.toLowerCase()) {
    throw invalidField('password', msg.passwordIsEmail);
  }
}

/** Ends every session of a user (a reset of their second factor by the office). */
export function endAllSessions(db: Kysely<Database>, userId: number): Promise<void> {
  return repo.deleteSessionsOfUser(db, userId);
}

/** Ends every session of a user but the one making the request (after a password change). */
export function endOtherSessions(db: Kysely<Database>, principal: Principal): Promise<void> {
  return repo.deleteSessionsOfUser(db, principal.id, principal.sessionId ?? undefined);
}

/** The password asked again before a change, under the sign-in's limits (decision 147). */
export { recheckPassword } from './password-recheck.ts';

/** Sign-in, sign-out and setting a password through a link. */
export function authService(ctx: AppContext) {
  const secondFactor = secondFactorService(ctx);

  /**
   * Checks the credentials and starts a session. Every attempt counts against the throttles before
   * the password is checked, so concurrent guesses cannot slip past a limit (sign-in-limits.ts).
   */
  async function login(body: LoginBody, client: Client): Promise<LoginResult> {
    const attempt = await claimSignInAttempt(ctx, body.email, client);

    const k = ctx.db.kysely;
    const user = await repo.findUserByEmail(k, body.email);
    // Unknown addresses and accounts without a password cost one verification as well, so the
    // answer's timing does not reveal which addresses have an account.
    let passwordMatches: boolean;
    try {
      passwordMatches = await verifyPassword(
        user?.password_hash ?? (await dummyPasswordHash()),
        body.password,
      );
    } catch (error) {
      if (!(error instanceof HashingBusyError)) throw error;
      await attempt.notChecked();
      throw signInBusy(error.retryAfterMs);
    }
    if (!user?.password_hash || !passwordMatches) {
      await attempt.failed();
      await recordFailedSignIn(ctx, { email: body.email, user, client });
      throw loginFailed();
    }

    // The rest of a sign-in is a millisecond or two of work on the event loop; in turns, so that
    // other members' requests waiting meanwhile are answered in between (decision 140).
    await nextTurn();
    await attempt.succeeded();
    const secondStep = await secondFactor.challengeFor(user, body.device_token);
    if (secondStep) return secondStep;
    return startSession(ctx, user, client);
  }

  async function logout(principal: Principal, client: Client): Promise<void> {
    await ctx.db.kysely.transaction().execute(async (trx) => {
      // An API-Schlüssel never reaches this route (api-key.policy.ts); it has no session to end.
      if (principal.sessionId !== null) await repo.deleteSession(trx, principal.sessionId);
      await recordOwnAccountAudit(trx, ctx.clock, principal, { action: 'auth.logout', ip: client.ip });
    });
  }

  /**
   * Queues the request for the background worker, which mails a reset link when the address has an
   * account. The request path is the same for every address, in answer and in timing (decision
   * 118); over the limit nothing is queued, silently, so the mailbox of an address cannot be flooded.
   */
  async function requestPasswordReset(body: ForgotPasswordBody, client: Client): Promise<void> {
    const perClient = await ctx.counters.increment(`forgot:${client.ip}:${body.email}`, HOUR, 'flood');
    const perAddress = await ctx.counters.increment(`forgot:${body.email}`, HOUR, 'flood');
    if (perClient.count > RESET_REQUESTS_PER_CLIENT || perAddress.count > RESET_REQUESTS_PER_ADDRESS) {
      ctx.logger.warn({ ip: client.ip }, 'Zu viele Anfragen zum Zurücksetzen des Passworts; keine E-Mail');
      return;
    }

    await enqueuePasswordRequest(ctx.db.kysely, ctx.clock, { email: body.email, ip: client.ip });
  }

  /**
   * Sets a password through a reset or invitation link. The link works once; every session of
   * the user ends, so whoever knew the old password is signed out everywhere. An invitation's link
   * then signs the new member in, as a sign-in would: a session, or the second step where the
   * account already has a second factor (decision 176). A reset link does not: the member signs in
   * on the page the specification names.
   */
  async function resetPassword(body: PasswordResetBody, client: Client): Promise<PasswordResetResult> {
    const k = ctx.db.kysely;
    const now = ctx.clock.now().toISOString();
    const token = await repo.findPasswordToken(k, hashToken(body.token));
    const usable = token && token.user_id === body.id && token.used_at === null && token.expires_at > now;
    const user = usable ? await repo.findUserById(k, body.id) : undefined;
    if (!token || !user) throw resetTokenInvalid();
    refuseEmailAsPassword(body.password, user.email);

    // Hashing takes a while; it happens before the transaction so that no write waits for it.
    const passwordHash = await hashPassword(body.password);
    await k.transaction().execute(async (trx) => {
      if (!(await repo.consumePasswordToken(trx, { id: token.id, userId: user.id }, now))) {
        throw resetTokenInvalid();
      }
      await repo.setPasswordHash(trx, user.id, passwordHash, now);
      await repo.deleteSessionsOfUser(trx, user.id);
      // A new password also ends "Diesem Gerät vertrauen"; the second factor itself stays.
      await forgetTrustedDevices(trx, user.id);
      await recordOwnAccountAudit(trx, ctx.clock, user, {
        action: token.purpose === 'invite' ? 'auth.invitation_accepted' : 'auth.reset_completed',
        ip: client.ip,
      });
    });
    if (token.purpose !== 'invite') return { message: PASSWORD_RESET_SUCCESS_MESSAGE };
    const signIn =
      (await secondFactor.challengeFor(user, undefined)) ?? (await startSession(ctx, user, client));
    return { message: INVITATION_ACCEPTED_MESSAGE, sign_in: signIn };
  }

  /**
   * The sign-in's second step: the two-factor feature checks the proof and spends the interim
   * token; the session starts here, and a trusted device gets its token.
   */
  async function finishSignIn(
    body: Pick<TwoFactorBody, 'challenge' | 'code' | 'recovery_code' | 'trust_device'> & {
      webauthn?: unknown;
    },
    client: Client,
  ): Promise<LoginResponse & { device_token?: string }> {
    const userId = await secondFactor.passChallenge(body);
    const user = await repo.findUserById(ctx.db.kysely, userId);
    if (!user) throw new AppError('unauthenticated', TWO_FACTOR_MESSAGES.challengeInvalid);
    const session = await startSession(ctx, user, client);
    if (!body.trust_device) return session;
    return { ...session, device_token: await secondFactor.trustDevice(user.id, client.userAgent) };
  }

  return { login, logout, requestPasswordReset, resetPassword, finishSignIn };
}
