import {
  TRUSTED_DEVICE_DAYS,
  TWO_FACTOR_MESSAGES,
  type TwoFactorBody,
  type TwoFactorMethod,
  type TwoFactorRequired,
} from '@gremienportal/contracts/two-factor';
import type { LoginResponse } from '@gremienportal/contracts/auth';
import type { AppContext } from '../../context.ts';
import { DAY, MINUTE } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { mailText } from '../../mail/text.ts';
import { hashRecoveryCode } from '../../second-factor/recovery-codes.ts';
import { totpStep } from '../../second-factor/totp.ts';
import { hashToken, newToken } from '../../tokens.ts';
import * as authRepo from './auth.repository.ts';
import type { Client } from './sign-in-limits.ts';
import { startSession } from './start-session.ts';
import * as repo from './two-factor.repository.ts';

/** The interim token between password and second factor lives this long. */
export const CHALLENGE_MS = 5 * MINUTE;
/** Wrong codes in a row before the second step of the account locks, and for how long. */
const MAX_WRONG_CODES = 5;
const LOCK_MS = 15 * MINUTE;

const challengeInvalid = () => new AppError('unauthenticated', TWO_FACTOR_MESSAGES.challengeInvalid);

/** A code, a recovery code (or later a passkey) for one account; what the account allows. */
export type SecondFactorProof = Pick<TwoFactorBody, 'code' | 'recovery_code'>;

/**
 * The second step of the sign-in (issue 18) and the check of a code wherever one is asked for
 * (turning the factor off). Wrong codes count per account across instances (the counter store,
 * Redis with several): 5 in a row lock it for 15 minutes and mail the member.
 */
export function secondFactorService(ctx: AppContext) {
  const k = () => ctx.db.kysely;
  const failKey = (userId: number) => `2fa-wrong:${userId}`;
  const lockKey = (userId: number) => `2fa-lock:${userId}`;

  async function assertNotLocked(userId: number) {
    const lock = await ctx.counters.peek(lockKey(userId));
    if (lock.count > 0) {
      throw new AppError('too_many_requests', TWO_FACTOR_MESSAGES.locked, undefined, {
        'retry-after': String(Math.max(1, Math.ceil(lock.resetInMs / 1000))),
      });
    }
  }

  async function countWrongCode(userId: number) {
    const wrong = await ctx.counters.increment(failKey(userId), LOCK_MS);
    if (wrong.count < MAX_WRONG_CODES) return;
    await ctx.counters.increment(lockKey(userId), LOCK_MS);
    await ctx.counters.reset(failKey(userId));
    const user = await authRepo.findUserById(k(), userId);
    if (!user) return;
    ctx.logger.warn({ userId }, 'Zweiter Faktor nach falschen Codes gesperrt');
    await enqueueMail(k(), ctx.clock, {
      to: user.email,
      subject: 'Falsche Bestätigungscodes – Gremienportal',
      text: mailText(user, [
        'Jemand hat mehrfach einen falschen Bestätigungscode für Ihr Konto im Gremienportal eingegeben. Die Anmeldung ist deshalb für 15 Minuten gesperrt.',
        '',
        'Wenn Sie das nicht selbst waren, kennt möglicherweise jemand Ihr Passwort: Bitte ändern Sie es nach der Sperre unter „Mein Account“ und wenden Sie sich an die Geschäftsstelle.',
      ]),
    });
  }

  /** Checks a code or recovery code for the account, once; counts it when wrong. */
  async function verify(userId: number, proof: SecondFactorProof): Promise<boolean> {
    await assertNotLocked(userId);
    const account = await repo.secondFactorOf(k(), userId);
    const now = ctx.clock.now();
    let ok = false;
    if (account && proof.code !== undefined && account.totp_secret) {
      const step = await totpStep(
        ctx.secrets.open(account.totp_secret),
        proof.code,
        now,
        account.totp_last_step === null ? null : Number(account.totp_last_step),
      );
      ok = step !== null && (await repo.advanceTotpStep(k(), userId, step));
    } else if (account && proof.recovery_code !== undefined) {
      ok = await repo.consumeRecoveryCode(
        k(),
        userId,
        hashRecoveryCode(proof.recovery_code),
        now.toISOString(),
      );
    }
    if (ok) await ctx.counters.reset(failKey(userId));
    else await countWrongCode(userId);
    return ok;
  }

  return {
    verify,

    /**
     * After a correct password: null when the account has no second factor (or this device is
     * trusted), else the interim challenge the second step needs.
     */
    async challengeFor(
      user: { id: number; two_factor_enabled: number },
      deviceToken?: string,
    ): Promise<TwoFactorRequired | null> {
      // Read with the credentials: a sign-in without a second factor costs no further query.
      if (!user.two_factor_enabled) return null;
      const account = await repo.secondFactorOf(k(), user.id);
      if (!account?.two_factor_enabled) return null;
      const now = ctx.clock.now();
      if (
        deviceToken &&
        (await repo.findTrustedDevice(k(), user.id, hashToken(deviceToken), now.toISOString()))
      ) {
        return null;
      }
      const token = newToken();
      await repo.insertChallenge(k(), {
        userId: user.id,
        purpose: 'login',
        tokenHash: hashToken(token),
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + CHALLENGE_MS).toISOString(),
      });
      const methods: TwoFactorMethod[] = [];
      if (account.totp_secret) methods.push('totp');
      if ((await repo.passkeyCount(k(), user.id)) > 0) methods.push('webauthn');
      methods.push('recovery');
      return { two_factor_required: true, methods, challenge: token };
    },

    /** The second step: the challenge and a code finish the sign-in. */
    async finish(body: TwoFactorBody, client: Client): Promise<LoginResponse & { device_token?: string }> {
      const now = ctx.clock.now();
      const challenge = await repo.findChallenge(k(), hashToken(body.challenge), 'login', now.toISOString());
      if (!challenge) throw challengeInvalid();
      if (!(await verify(challenge.user_id, body))) {
        throw new AppError(
          'unauthenticated',
          body.code !== undefined ? TWO_FACTOR_MESSAGES.codeInvalid : TWO_FACTOR_MESSAGES.recoveryInvalid,
        );
      }
      if (!(await repo.consumeChallenge(k(), challenge.id, now.toISOString()))) throw challengeInvalid();
      const user = await authRepo.findUserById(k(), challenge.user_id);
      if (!user) throw challengeInvalid();
      const session = await startSession(ctx, user, client);
      if (!body.trust_device) return session;
      const deviceToken = newToken();
      await repo.insertTrustedDevice(k(), {
        userId: user.id,
        tokenHash: hashToken(deviceToken),
        label: client.userAgent?.slice(0, 200) || 'Unbekanntes Gerät',
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + TRUSTED_DEVICE_DAYS * DAY).toISOString(),
      });
      return { ...session, device_token: deviceToken };
    },
  };
}
