import type { Transaction } from 'kysely';
import { GERMAN, AppError, notFound } from '../../errors.ts';
import type { AppContext } from '../../context.ts';
import type { Config } from '../../config.ts';
import { DAY, HOUR, MINUTE } from '../../clock.ts';
import type { Database, EventRow } from '../../db/schema.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { canSeeEvent, eventFilter } from '../../policies/events.policy.ts';
import { viewerOfRoles, type Viewer } from '../../policies/principal.ts';
import { requiresSecondFactor } from '../../policies/two-factor.policy.ts';
import { hashToken, newToken } from '../../credentials/tokens.ts';
import { recordOwnAccountAudit } from '../audit/audit-log.service.ts';
import { trashedEvent, trashedEventsSince } from '../trash/trashed-events.service.ts';
import { eventCancelledMail } from './calendar.mails.ts';
import {
  buildCalendar,
  calendarEventOf,
  cancelledEntry,
  type CalendarEvent,
  type CalendarPerson,
} from './events.ics.ts';
import * as repo from './calendar-feed.repository.ts';

/*
 * Calendars that update (decision 130): the cancellation of a deleted event (its
 * calendar link, the mail to those who said Zusage) and the personal calendar feed, a URL with a
 * token of its own that opens nothing but the feed.
 */

/** The feed lists events from this many days back on. */
export const FEED_DAYS_BACK = 90;
/** How often calendars are asked to fetch the feed again. */
const FEED_REFRESH = 'PT1H';
/** `last_used_at` is written at most this often: a calendar may fetch the feed every few minutes. */
const TOUCH_INTERVAL_MS = HOUR;
/** Unknown tokens one client may try in the window before every feed request of it answers 429. */
export const FEED_FAILURES_PER_CLIENT = 20;
const FEED_FAILURE_WINDOW_MS = 15 * MINUTE;

/** The sender of the portal's mails, as the ORGANIZER of a cancellation. */
export function portalOrganizer(config: Pick<Config, 'MAIL_FROM'>): CalendarPerson {
  const match = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+)>\s*$/.exec(config.MAIL_FROM);
  return match
    ? { name: match[1]!.trim() || 'Gremienportal', email: match[2]! }
    : { name: 'Gremienportal', email: config.MAIL_FROM.trim() };
}

/** The event's withdrawal as an iCalendar file (METHOD:CANCEL). */
function cancellation(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  event: EventRow,
  cancelledAt: string,
  attendee?: CalendarPerson,
): string {
  return buildCalendar(
    cancelledEntry(calendarEventOf(event, ctx.config.PUBLIC_URL), cancelledAt),
    ctx.clock.now(),
    {
      method: 'CANCEL',
      organizer: portalOrganizer(ctx.config),
      ...(attendee ? { attendee } : {}),
    },
  );
}

/**
 * In the transaction that moves the event to the Papierkorb (before its answers go with it): an
 * "abgesagt" mail with the cancellation for everyone who said Zusage and can see the event.
 */
export async function cancellationMails(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  trx: Transaction<Database>,
  event: EventRow & { roles: readonly { id: number }[] },
  cancelledAt: string,
): Promise<OutgoingMail[]> {
  const attendees = (await repo.acceptedAttendees(trx, event.id)).filter((user) =>
    canSeeEvent(viewerOfRoles(user.roles), event),
  );
  return attendees.map((user) =>
    eventCancelledMail(
      user,
      {
        id: event.id,
        title: event.title,
        start: event.start_at,
        end: event.end_at,
        location: event.location,
      },
      cancellation(ctx, event, cancelledAt, {
        name: `${user.firstname} ${user.lastname}`,
        email: user.email,
      }),
    ),
  );
}

/**
 * The calendar link of an event in the Papierkorb: its cancellation, for a viewer who could see
 * it; undefined for anyone else, as for an event that never existed.
 */
export async function cancelledCalendarFor(
  ctx: Pick<AppContext, 'config' | 'clock' | 'db'>,
  viewer: Viewer,
  id: number,
): Promise<{ title: string; body: string } | undefined> {
  const trashed = await trashedEvent(ctx.db.kysely, id);
  if (!trashed || !canSeeEvent(viewer, trashed)) return undefined;
  return { title: trashed.event.title, body: cancellation(ctx, trashed.event, trashed.deletedAt) };
}

const feedUrl = (ctx: AppContext, token: string) => `${ctx.config.PUBLIC_URL}/api/v1/calendar/${token}.ics`;

export function calendarFeedService(ctx: AppContext) {
  const db = ctx.db.kysely;

  /** Too many unknown tokens from this client: 429 until the window ends. */
  async function refuseGuessing(clientKey: string): Promise<void> {
    const { count, resetInMs } = await ctx.counters.peek(clientKey);
    if (count >= FEED_FAILURES_PER_CLIENT) {
      throw new AppError('too_many_requests', GERMAN.tooManyRequests, undefined, {
        'Retry-After': String(Math.max(1, Math.ceil(resetInMs / 1000))),
      });
    }
  }

  return {
    async status(principal: Principal) {
      const feed = await repo.findFeed(db, principal.id);
      return {
        active: feed !== undefined,
        created_at: feed?.created_at ?? null,
        last_used_at: feed?.last_used_at ?? null,
      };
    },

    /** A new address; the old one (if any) stops working in the same step. Shown only now. */
    async create(actor: Actor): Promise<{ url: string; created_at: string }> {
      const token = newToken();
      const now = ctx.clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        const replaced = (await repo.findFeed(trx, actor.principal.id)) !== undefined;
        await repo.saveFeed(trx, actor.principal.id, hashToken(token), now);
        await recordOwnAccountAudit(trx, ctx.clock, actor.principal, {
          action: 'account.calendar_feed_created',
          details: { replaced },
          ip: actor.ip,
        });
      });
      return { url: feedUrl(ctx, token), created_at: now };
    },

    /** Ends the subscription; without one there is nothing to do. */
    async revoke(actor: Actor): Promise<void> {
      await db.transaction().execute(async (trx) => {
        if (!(await repo.deleteFeed(trx, actor.principal.id))) return;
        await recordOwnAccountAudit(trx, ctx.clock, actor.principal, {
          action: 'account.calendar_feed_revoked',
          ip: actor.ip,
        });
      });
    },

    /**
     * The feed behind a token: the owner's visible events (roles read now) from FEED_DAYS_BACK on,
     * and the cancellations of those in the Papierkorb they could see. An unknown token, a removed
     * account and one held back by a missing second factor answer the same 404.
     */
    async feed(token: string, client: { ip: string }): Promise<string> {
      const clientKey = `calendar-feed:${client.ip}`;
      await refuseGuessing(clientKey);
      const owner = await repo.findFeedOwner(db, hashToken(token));
      const blocked =
        owner &&
        !owner.two_factor_enabled &&
        requiresSecondFactor(
          ctx.config,
          owner.roles.map((role) => role.name),
        );
      if (!owner || blocked) {
        // Any client makes these with a request each; the token is the defence, this a brake.
        await ctx.counters.increment(clientKey, FEED_FAILURE_WINDOW_MS, 'flood');
        throw notFound();
      }
      const viewer = viewerOfRoles(owner.roles);
      const now = ctx.clock.now();
      const since = new Date(now.getTime() - FEED_DAYS_BACK * DAY).toISOString();
      const [live, trashed] = await Promise.all([
        repo.eventsEndingSince(db, since, eventFilter(viewer)),
        trashedEventsSince(db, since),
      ]);
      const entries: CalendarEvent[] = [
        ...live.map((row) => calendarEventOf(row, ctx.config.PUBLIC_URL)),
        ...trashed
          .filter((item) => canSeeEvent(viewer, item))
          .map((item) => cancelledEntry(calendarEventOf(item.event, ctx.config.PUBLIC_URL), item.deletedAt)),
      ].sort((a, b) => a.start.localeCompare(b.start) || a.uid.localeCompare(b.uid));

      const lastUsed = owner.last_used_at ? new Date(owner.last_used_at).getTime() : -Infinity;
      if (now.getTime() - lastUsed >= TOUCH_INTERVAL_MS) {
        // Only informs the account page: when it cannot be written (a full disk), the feed goes on.
        await repo
          .touchFeed(db, owner.id, now.toISOString())
          .catch((error: unknown) =>
            ctx.logger.warn({ err: error }, 'Letzte Nutzung des Kalender-Abonnements nicht gespeichert'),
          );
      }
      return buildCalendar(entries, now, { feed: { name: 'Gremienportal', refresh: FEED_REFRESH } });
    },
  };
}
