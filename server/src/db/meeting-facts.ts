import type { Kysely, Transaction } from 'kysely';
import type { MyAttendance } from '@gremienportal/contracts/meetings';
import { batches } from './batches.ts';
import type { AttendanceStatus, Database } from './schema.ts';

/*
 * What an event's answer carries of its meeting (decision 177): how many agenda items it has and
 * the member's own Zu- or Absage. The meetings feature owns these tables and builds on the events
 * feature; the events feature shows both in every event answer. Here, below both, neither has to
 * call the other.
 */

type Executor = Kysely<Database> | Transaction<Database>;

export interface AnswerRow {
  event_id: number;
  user_id: number;
  status: AttendanceStatus;
  comment: string;
  answered_at: string;
}

export const toMyAttendance = (row: AnswerRow): MyAttendance => ({
  status: row.status,
  comment: row.comment,
  answered_at: row.answered_at,
});

/** Items (main and sub-items) per event, for the event list; events without agenda are absent. */
export async function agendaCounts(db: Executor, eventIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (const batch of batches(eventIds)) {
    const rows = await db
      .selectFrom('agenda_items')
      .select(['event_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('event_id', 'in', batch)
      .groupBy('event_id')
      .execute();
    for (const row of rows) counts.set(row.event_id, Number(row.count));
  }
  return counts;
}

export function findAnswer(db: Executor, eventId: number, userId: number): Promise<AnswerRow | undefined> {
  return db
    .selectFrom('event_attendance')
    .selectAll()
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The member's own answers, by event id, in one query (for the event list). */
export async function myAttendanceByEvent(db: Executor, userId: number): Promise<Map<number, MyAttendance>> {
  const rows = await db.selectFrom('event_attendance').selectAll().where('user_id', '=', userId).execute();
  return new Map(rows.map((row) => [row.event_id, toMyAttendance(row)]));
}

/** The member's own answer to one event, or null. */
export async function myAttendanceTo(
  db: Executor,
  eventId: number,
  userId: number,
): Promise<MyAttendance | null> {
  const row = await findAnswer(db, eventId, userId);
  return row ? toMyAttendance(row) : null;
}
