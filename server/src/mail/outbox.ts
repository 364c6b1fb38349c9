import type { Kysely, Transaction } from 'kysely';
import type { CalendarMethod, Database } from '../db/schema.ts';
import type { Clock } from '../clock.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The HTML alternative of `text` (compose.ts renders both from the same content). */
  html: string;
  /** A notification's `List-Unsubscribe` target: the notification settings page. */
  listUnsubscribe?: string;
  /** An iCalendar part (an invitation's update or cancellation), sent as text/calendar. */
  calendar?: { method: CalendarMethod; content: string };
}

/**
 * Queues mails in the outbox table. Call it with the transaction of the change that causes the
 * mails: they are sent only if the change commits, and a restart loses none.
 */
export async function enqueueMail(
  db: Kysely<Database> | Transaction<Database>,
  clock: Clock,
  mails: OutgoingMail | OutgoingMail[],
): Promise<void> {
  const list = Array.isArray(mails) ? mails : [mails];
  if (list.length === 0) return;
  const now = clock.now().toISOString();
  await db
    .insertInto('outbox')
    .values(
      list.map((mail) => ({
        to_address: mail.to,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
        list_unsubscribe: mail.listUnsubscribe ?? null,
        calendar: mail.calendar?.content ?? null,
        calendar_method: mail.calendar?.method ?? null,
        created_at: now,
        attempts: 0,
        next_attempt_at: now,
        locked_until: null,
        sent_at: null,
        last_error: null,
      })),
    )
    .execute();
}
