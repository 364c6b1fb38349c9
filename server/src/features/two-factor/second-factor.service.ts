import {
  TRUSTED_DEVICE_DAYS,
  TWO_FACTOR_MESSAGES,
  twoFactorLockedMessage,
  type TwoFactorBody,
  type TwoFactorMethod,
  type TwoFactorRequired,
} from '@gremienportal/contracts/two-factor';
import type { AppContext } from '../../context.ts';
import { DAY, MINUTE } from '../../clock.ts';
import { AppError, GERMAN, invalidField } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { composeMail } from '../../mail/compose.ts';
import { hashRecoveryCode } from './recovery-codes.ts';
import { totpStep } from './totp.ts';
import { authenticationOptions, credentialIdOf, relyingParty, verifyAssertion } from './webauthn.ts';
import { hashToken, newToken } from '../../credentials/tokens.ts';
import * as repo from './two-factor.repository.ts';

type Executor = Parameters<typeof repo.clearSecondFactor>[0];

/** Forgets every trusted device of an account (a new password, a reset). */
export const forgetTrustedDevices = (db: Executor, userId: number) => repo.deleteTrustedDevices(db, userId);

/** Removes an account's whole second factor (the command line's reset). */
export const clearSecondFactor = (db: Executor, userId: number) => repo.clearSecondFactor(db, userId);

/** The interim token between password and second factor lives this long. */
export const CHALLENGE_MS = 5 * MINUTE;
/** Wrong codes in a row before the second step of the account locks, and for how long. */
const MAX_WRONG_CODES = 5;
const LOCK_MS = 15 * MINUTE;

/** A passkey prompt outside the sign-in: adding a passkey, or confirming with one. */
type PromptPurpose = 'register' | 'confirm';

const challengeInvalid = () => new AppError('unauthenticated', TWO_FACTOR_MESSAGES.challengeInvalid);

/**
 * A code, a recovery code or a passkey's answer (with the challenge its prompt was given) for one
 * account.
 */
export type SecondFactorProof = Pick<TwoFactorBody, 'code' | 'recovery_code'> & {
  webauthn?: { response: unknown; challenge: string | null };
};

/** The German message for a refused proof, by its kind. */
export const proofRefusedMessage = (proof: SecondFactorProof) =>
  proof.webauthn
    ? TWO_FACTOR_MESSAGES.passkeyFailed
    : proof.code !== undefined
      ? TWO_FACTOR_MESSAGES.codeInvalid
      : TWO_FACTOR_MESSAGES.recoveryInvalid;

/**
 * The second step of the sign-in (decision 126) and the check of a code wherever one is asked for
 * (turning the factor off). Wrong codes count per account across instances (the counter store,
 * Redis with several): 5 in a row lock it for 15 minutes and mail the member.
 */
export function secondFactorService(ctx: AppContext) {
  const k = () => ctx.db.kysely;
  const failKey = (userId: number) => `2fa-wrong:${userId}`;
  const lockKey = (userId: number) => `2fa-lock:${userId}`;

  const locked = (resetInMs: number) => {
    const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
    return new AppError('too_many_requests', twoFactorLockedMessage(seconds), undefined, {
      'retry-after': String(seconds),
    });
  };

  /**
   * Counts the proof as wrong before it is checked, so that concurrent guesses cannot slip past
   * the limit, and a store without room for the count refuses the check (decision 148). A right
   * proof clears the count again.
   */
  async function claimCheck(userId: number) {
    const lock = await ctx.counters.peek(lockKey(userId));
    if (lock.count > 0) throw locked(lock.resetInMs);
    const wrong = await ctx.counters.increment(failKey(userId), LOCK_MS, 'protect');
    if (!Number.isFinite(wrong.count)) {
      throw new AppError('too_many_requests', GERMAN.tooManyRequests, undefined, {
        'retry-after': String(Math.max(1, Math.ceil(wrong.resetInMs / 1000))),
      });
    }
    if (wrong.count > MAX_WRONG_CODES) throw locked(wrong.resetInMs);
    return wrong.count;
  }

  async function countWrongCode(userId: number, wrongCodes: number) {
    if (wrongCodes < MAX_WRONG_CODES) return;
    const lock = await ctx.counters.increment(lockKey(userId), LOCK_MS, 'protect');
    // Without room for the lock the wrong codes stay counted, over the limit: locked as well.
    if (Number.isFinite(lock.count)) await ctx.counters.reset(failKey(userId));
    const user = await repo.mailRecipient(k(), userId);
    if (!user) return;
    ctx.logger.warn({ userId }, 'Zweiter Faktor nach falschen Codes gesperrt');
    await enqueueMail(
      k(),
      ctx.clock,
      composeMail({
        to: user.email,
        subject: 'Falsche Bestätigungscodes – Gremienportal',
        recipient: user,
        blocks: [
          {
            kind: 'paragraph',
            lines: [
              'Jemand hat mehrfach einen falschen Bestätigungscode für Ihr Konto im Gremienportal eingegeben. Die Anmeldung ist deshalb für 15 Minuten gesperrt.',
            ],
          },
          {
            kind: 'paragraph',
            lines: [
              'Wenn Sie das nicht selbst waren, kennt möglicherweise jemand Ihr Passwort: Bitte ändern Sie es nach der Sperre unter „Mein Account“ und wenden Sie sich an die Geschäftsstelle.',
            ],
          },
        ],
      }),
    );
  }

  const rp = relyingParty(ctx.config.PUBLIC_URL);

  /** A passkey's answer to `challenge`; its counter and last use are kept. */
  async function verifyPasskey(userId: number, response: unknown, challenge: string | null, now: Date) {
    const credentialId = credentialIdOf(response);
    if (!challenge || !credentialId) return false;
    const stored = (await repo.passkeysForCheck(k(), userId)).find(
      (key) => key.credential_id === credentialId,
    );
    if (!stored) return false;
    const counter = await verifyAssertion(rp, response, challenge, stored);
    if (counter === null) return false;
    await repo.markPasskeyUsed(k(), stored.id, counter, now.toISOString());
    return true;
  }

  /** Checks a code, recovery code or passkey for the account, once; counts it when wrong. */
  async function verify(userId: number, proof: SecondFactorProof): Promise<boolean> {
    const wrongCodes = await claimCheck(userId);
    const account = await repo.secondFactorOf(k(), userId);
    const now = ctx.clock.now();
    let ok = false;
    if (account && proof.webauthn) {
      ok = await verifyPasskey(userId, proof.webauthn.response, proof.webauthn.challenge, now);
    } else if (account && proof.code !== undefined && account.totp_secret) {
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
    else await countWrongCode(userId, wrongCodes);
    return ok;
  }

  /** Options for a passkey prompt of the account; none when it has no passkey. */
  async function passkeyPrompt(userId: number) {
    const passkeys = await repo.passkeysForCheck(k(), userId);
    if (passkeys.length === 0) throw new AppError('conflict', TWO_FACTOR_MESSAGES.noPasskey);
    return authenticationOptions(rp, passkeys);
  }

  /** Keeps a passkey prompt's challenge for its answer; a new prompt replaces an open one. */
  async function openPrompt(userId: number, purpose: PromptPurpose, webauthnChallenge: string) {
    const now = ctx.clock.now();
    await repo.dropUserChallenges(k(), userId, purpose);
    await repo.insertChallenge(k(), {
      userId,
      purpose,
      tokenHash: hashToken(newToken()),
      webauthnChallenge,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + CHALLENGE_MS).toISOString(),
    });
  }

  async function usableLoginChallenge(token: string) {
    const challenge = await repo.findChallenge(k(), hashToken(token), 'login', ctx.clock.now().toISOString());
    if (!challenge) throw challengeInvalid();
    return challenge;
  }

  /** The open prompt's challenge, spent by this call (each prompt is answered once). */
  async function takePrompt(userId: number, purpose: PromptPurpose): Promise<string | null> {
    const now = ctx.clock.now().toISOString();
    const row = await repo.findUserChallenge(k(), userId, purpose, now);
    if (!row || !(await repo.consumeChallenge(k(), row.id, now))) return null;
    return row.webauthn_challenge;
  }

  return {
    verify,

    /**
     * The signed-in person's own code, recovery code or passkey (`webauthn`: the answer to the
     * prompt of confirmPasskeyOptions), asked before a change of a second factor: turning one's own
     * off, resetting somebody else's. A wrong one is a 422 on its field and counts toward the lock.
     */
    async confirmOwnFactor(
      userId: number,
      body: Pick<TwoFactorBody, 'code' | 'recovery_code'> & { webauthn?: unknown },
    ): Promise<void> {
      const proof: SecondFactorProof = body.webauthn
        ? { webauthn: { response: body.webauthn, challenge: await takePrompt(userId, 'confirm') } }
        : { code: body.code, recovery_code: body.recovery_code };
      if (!(await verify(userId, proof))) {
        const field = body.webauthn ? 'webauthn' : body.code !== undefined ? 'code' : 'recovery_code';
        throw invalidField(field, proofRefusedMessage(proof));
      }
    },

    /** The passkey prompt of the second step, bound to the sign-in's interim token. */
    async loginPasskeyOptions(token: string) {
      const challenge = await usableLoginChallenge(token);
      const options = await passkeyPrompt(challenge.user_id);
      await repo.setWebauthnChallenge(k(), challenge.id, options.challenge);
      return options;
    },

    /** A passkey prompt confirming a change of one's own second factor (turning it off). */
    async confirmPasskeyOptions(userId: number) {
      const options = await passkeyPrompt(userId);
      await openPrompt(userId, 'confirm', options.challenge);
      return options;
    },

    openPrompt,

    takePrompt,

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

    /**
     * The second step: the interim token and a code, recovery code or passkey (`webauthn`: the
     * answer to the prompt of loginPasskeyOptions). A right proof spends the token and answers the
     * account whose sign-in it finishes; the auth feature then starts the session.
     */
    async passChallenge(
      body: Pick<TwoFactorBody, 'challenge' | 'code' | 'recovery_code'> & { webauthn?: unknown },
    ): Promise<number> {
      const challenge = await usableLoginChallenge(body.challenge);
      const proof: SecondFactorProof =
        body.webauthn === undefined
          ? { code: body.code, recovery_code: body.recovery_code }
          : { webauthn: { response: body.webauthn, challenge: challenge.webauthn_challenge } };
      if (!(await verify(challenge.user_id, proof))) {
        throw new AppError('unauthenticated', proofRefusedMessage(proof));
      }
      if (!(await repo.consumeChallenge(k(), challenge.id, ctx.clock.now().toISOString()))) {
        throw challengeInvalid();
      }
      return challenge.user_id;
    },

    /** "Diesem Gerät vertrauen": the token that skips the second step on this device. */
    async trustDevice(userId: number, userAgent: string | undefined): Promise<string> {
      const now = ctx.clock.now();
      const deviceToken = newToken();
      await repo.insertTrustedDevice(k(), {
        userId,
        tokenHash: hashToken(deviceToken),
        label: userAgent?.slice(0, 200) || 'Unbekanntes Gerät',
        now: now.toISOString(),
        expiresAt: new Date(now.getTime() + TRUSTED_DEVICE_DAYS * DAY).toISOString(),
      });
      return deviceToken;
    },
  };
}
