import type { AppContext } from '../context.ts';
import { DAY, HOUR, MINUTE } from '../clock.ts';
import type { DailyTask } from './daily-job.ts';

export type HousekeepingContext = Pick<AppContext, 'db' | 'clock' | 'config'>;

/** Sent mails are kept this long for questions about delivery, then removed with their links. */
export const SENT_MAIL_RETENTION_DAYS = 30;
/**
 * Forgot-password requests are deleted when handled, seconds after they arrive; one the worker
 * could not handle (it failed every attempt) is dropped after a day with its address.
 */
export const PASSWORD_REQUEST_RETENTION_MS = DAY;

export interface HousekeepingResult {
  sessions: number;
  passwordTokens: number;
  mails: number;
  passwordRequests: number;
}

/**
 * Removes what no longer serves anyone (DSGVO data minimisation): sessions past their idle or
 * absolute limit, set-password tokens that were used or have expired, mails sent more than
 * 30 days ago (mails that never went out stay, so an operator can see them) and forgot-password
 * requests left unhandled for a day. Idempotent.
 */
export async function runHousekeeping(ctx: HousekeepingContext): Promise<HousekeepingResult> {
  const db = ctx.db.kysely;
  const now = ctx.clock.now().getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('last_seen_at', '<', iso(now - ctx.config.SESSION_IDLE_MINUTES * MINUTE)),
        eb('created_at', '<', iso(now - ctx.config.SESSION_ABSOLUTE_HOURS * HOUR)),
      ]),
    )
    .executeTakeFirst();
  const passwordTokens = await db
    .deleteFrom('password_tokens')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<', iso(now))]))
    .executeTakeFirst();
  const mails = await db
    .deleteFrom('outbox')
    .where('sent_at', 'is not', null)
    .where('sent_at', '<', iso(now - SENT_MAIL_RETENTION_DAYS * DAY))
    .executeTakeFirst();
  const passwordRequests = await db
    .deleteFrom('password_requests')
    .where('created_at', '<', iso(now - PASSWORD_REQUEST_RETENTION_MS))
    .executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    passwordTokens: Number(passwordTokens.numDeletedRows),
    mails: Number(mails.numDeletedRows),
    passwordRequests: Number(passwordRequests.numDeletedRows),
  };
}

/** Housekeeping's part of the daily maintenance. */
export const housekeepingTask: DailyTask = {
  name: 'Aufräumen',
  async run(ctx) {
    const cleaned = await runHousekeeping(ctx);
    if (cleaned.sessions + cleaned.passwordTokens + cleaned.mails + cleaned.passwordRequests > 0) {
      ctx.logger.info(cleaned, 'Abgelaufene Sitzungen, Links und E-Mails entfernt');
    }
  },
};
