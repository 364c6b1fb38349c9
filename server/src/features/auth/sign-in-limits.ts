import {
  LOGIN_ACCOUNT_THROTTLED_MESSAGE,
  LOGIN_BUSY_MESSAGE,
  LOGIN_CLIENT_CONCURRENT_MESSAGE,
  LOGIN_CLIENT_THROTTLED_MESSAGE,
  LOGIN_THROTTLED_MESSAGE,
} from '@gremienportal/contracts/auth';
import type { AppContext } from '../../context.ts';
import { HOUR, MINUTE } from '../../clock.ts';
import { countRepeatedAudit, recordAudit } from '../audit/audit-log.service.ts';
import { AppError } from '../../errors.ts';

/** Who is asking, as far as throttling and the audit log care. */
export interface Client {
  ip: string;
  /** Names a trusted device on the account page (decision 126). */
  userAgent?: string | undefined;
}

/** The three limits (decisions 010 and 117), each a fixed window in the CounterStore. */
const PAIR_WINDOW_MS = MINUTE;
const CLIENT_WINDOW_MS = 10 * MINUTE;
const ACCOUNT_WINDOW_MS = HOUR;
/** Wait suggested to a client whose sign-ins run at the same moment beyond its limit. */
const CONCURRENT_RETRY_MS = 2_000;

/** An attempt that was let through: the caller says how it ended. */
export interface SignInAttempt {
  /** Wrong password or unknown address. */
  failed(): Promise<void>;
  /** Right password: the pair starts anew; for the other two limits it was no failure. */
  succeeded(): Promise<void>;
  /** The password was not checked at all (the server was busy): nothing counts. */
  notChecked(): Promise<void>;
}

const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/**
 * Counts a sign-in attempt against three limits before the password is checked, so concurrent
 * guesses cannot slip past any of them:
 * - per e-mail address and client (`LOGIN_MAX_ATTEMPTS` a minute; every attempt counts, a
 *   success starts anew),
 * - per client, whatever e-mail addresses it tries (`LOGIN_MAX_FAILURES_PER_CLIENT` in 10
 *   minutes): one client can neither spray one password over many accounts nor fill the hashing
 *   queue with made-up addresses,
 * - per e-mail address from all clients together (`LOGIN_MAX_FAILURES_PER_ACCOUNT` an hour),
 *   against guessing from many addresses. Unknown addresses count alike, so the limit reveals no
 *   account.
 * The last two are limits of failures. Each attempt is counted ahead (so that no more than the
 * limit can be checked at once) and given back when it succeeds or is refused, so members
 * signing in behind one address do not use up each other's limit. The client's confirmed
 * failures are counted apart: a client over its limit only by attempts still running is asked to
 * retry in seconds, not minutes. Over a limit: 429 with the message and `Retry-After` of the
 * longest wait.
 */
export async function claimSignInAttempt(
  ctx: AppContext,
  email: string,
  client: Client,
): Promise<SignInAttempt> {
  const { config, counters } = ctx;
  const pairKey = `login:${client.ip}:${email}`;
  const clientFailedKey = `login-client-failed:${client.ip}`;
  const accountFailedKey = `login-account-failed:${email}`;
  const countedKeys = [`login-client:${client.ip}`, `login-account:${email}`];
  const giveBack = async () => {
    await Promise.all(countedKeys.map((key) => counters.decrement(key)));
  };

  // Every attempt, refused ones too, creates the counts ahead: `flood` counters, which any
  // client can make in numbers. The confirmed failures each cost a password check and are kept
  // as `protect` counters, which a full store never gives up (decision 148).
  const [pair, perClient, perAccount, clientFailed, accountFailed] = await Promise.all([
    counters.increment(pairKey, PAIR_WINDOW_MS, 'flood'),
    counters.increment(countedKeys[0]!, CLIENT_WINDOW_MS, 'flood'),
    counters.increment(countedKeys[1]!, ACCOUNT_WINDOW_MS, 'flood'),
    counters.peek(clientFailedKey, 'protect'),
    counters.peek(accountFailedKey, 'protect'),
  ]);
  const limits = [
    {
      over: perAccount.count > config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      retryMs: perAccount.resetInMs,
      message: LOGIN_ACCOUNT_THROTTLED_MESSAGE,
    },
    {
      over: accountFailed.count >= config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      retryMs: accountFailed.resetInMs,
      message: LOGIN_ACCOUNT_THROTTLED_MESSAGE,
    },
    clientFailed.count >= config.LOGIN_MAX_FAILURES_PER_CLIENT
      ? { over: true, retryMs: clientFailed.resetInMs, message: LOGIN_CLIENT_THROTTLED_MESSAGE }
      : {
          over: perClient.count > config.LOGIN_MAX_FAILURES_PER_CLIENT,
          retryMs: CONCURRENT_RETRY_MS,
          message: LOGIN_CLIENT_CONCURRENT_MESSAGE,
        },
    {
      over: pair.count > config.LOGIN_MAX_ATTEMPTS,
      retryMs: pair.resetInMs,
      message: LOGIN_THROTTLED_MESSAGE,
    },
  ];
  const longest = limits.filter((limit) => limit.over).sort((a, b) => b.retryMs - a.retryMs)[0];
  if (longest) {
    await giveBack();
    throw new AppError('too_many_requests', longest.message, undefined, {
      'Retry-After': seconds(longest.retryMs),
    });
  }
  return {
    async failed() {
      await Promise.all([
        counters.increment(clientFailedKey, CLIENT_WINDOW_MS, 'protect'),
        counters.increment(accountFailedKey, ACCOUNT_WINDOW_MS, 'protect'),
      ]);
    },
    async succeeded() {
      await Promise.all([counters.reset(pairKey), giveBack()]);
    },
    async notChecked() {
      await Promise.all([counters.decrement(pairKey), giveBack()]);
    },
  };
}

/** 503 for a sign-in the hashing queue refused (see PasswordQueue). */
/**
 * The password checks ahead would take too long: 429 like the per-client limits (decision 117), so
 * clients and proxies treat it as "slow down", not as the portal being down.
 */
export const signInBusy = (retryAfterMs: number) =>
  new AppError('too_many_requests', LOGIN_BUSY_MESSAGE, undefined, { 'Retry-After': seconds(retryAfterMs) });

/** Unknown addresses tried by one client within the minute that are listed by name. */
const LISTED_ADDRESSES = 20;

/**
 * Records a failed sign-in. Failures of one client within a minute share an entry: one per
 * account tried (so that its owner still sees them under "Letzte Anmeldungen") and one for all
 * unknown addresses, which lists them. The first failure writes the entry; the later ones add to
 * its `count` (the label then reads "Anmeldung fehlgeschlagen (n×)"). Which failure is the first
 * is decided in the CounterStore, so instances sharing Redis share the entries too.
 */
export async function recordFailedSignIn(
  ctx: AppContext,
  attempt: { email: string; user: { id: number; email: string } | undefined; client: Client },
): Promise<void> {
  const { email, user, client } = attempt;
  const entry = {
    action: 'auth.login_failed',
    objectType: 'user' as const,
    objectId: user?.id ?? null,
    ip: client.ip,
  };
  const { count } = await ctx.counters.increment(
    `login-audit:${client.ip}:${user ? user.id : 'unknown'}`,
    MINUTE,
    // Losing it costs one more audit entry, not a limit.
    'flood',
  );
  const now = ctx.clock.now();
  if (count > 1) {
    const since = new Date(now.getTime() - MINUTE).toISOString();
    const counted = await countRepeatedAudit(ctx.db, entry, since, ({ details, objectLabel }) => {
      const next: Record<string, unknown> = {
        count: (typeof details?.count === 'number' ? details.count : 1) + 1,
        last_at: now.toISOString(),
      };
      if (user) return next;
      const listed = Array.isArray(details?.emails)
        ? details.emails.filter((item): item is string => typeof item === 'string')
        : objectLabel
          ? [objectLabel]
          : [];
      let more = typeof details?.more_emails === 'number' ? details.more_emails : 0;
      if (!listed.includes(email)) {
        if (listed.length < LISTED_ADDRESSES) listed.push(email);
        else more += 1;
      }
      return { ...next, emails: listed, ...(more > 0 ? { more_emails: more } : {}) };
    });
    // None found: the first of concurrent failures has not committed yet, or the counters were
    // lost (a Redis restart). A second entry then holds the rest; the counts still add up.
    if (counted) return;
  }
  await recordAudit(ctx.db.kysely, ctx.clock, { ...entry, actor: null, objectLabel: email });
}
