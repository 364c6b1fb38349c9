import type { Kysely, Transaction } from 'kysely';
import type { Database, EventAttendanceTable } from '../../db/schema.ts';
import type { AnswerRow } from '../../db/meeting-facts.ts';
import { membersWithRoles, type MemberRecord } from '../../db/member-lists.ts';
import { inviteeFilter } from '../../policies/events.policy.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** One answer per member and event: a second answer replaces the first (same SQL on both dialects). */
export async function saveAnswer(db: Executor, row: EventAttendanceTable): Promise<void> {
  await db
    .insertInto('event_attendance')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['event_id', 'user_id']).doUpdateSet({
        status: row.status,
        comment: row.comment,
        answered_at: row.answered_at,
      }),
    )
    .execute();
}

/** The answers to one event, by user id. */
export async function answersToEvent(db: Executor, eventId: number): Promise<Map<number, AnswerRow>> {
  const rows = await db.selectFrom('event_attendance').selectAll().where('event_id', '=', eventId).execute();
  return new Map(rows.map((row) => [row.user_id, row]));
}

/**
 * The people an event's attendance concerns: its invitees (`inviteeFilter` of the event's
 * `roleIds`), and everyone who answered (also without such a role, e.g. an admin, or one who lost
 * the role since), each once with all of their roles.
 */
export function attendees(
  db: Executor,
  eventId: number,
  roleIds: readonly number[],
): Promise<MemberRecord[]> {
  return membersWithRoles(db, (eb) => {
    const answered = eb.exists(
      eb
        .selectFrom('event_attendance')
        .select('event_attendance.user_id')
        .whereRef('event_attendance.user_id', '=', 'users.id')
        .where('event_attendance.event_id', '=', eventId),
    );
    return eb.or([inviteeFilter(roleIds)(eb), answered]);
  });
}

/** The Zusagen to one event with who gave them: the recipients of the Protokoll mail. */
export function acceptedBy(db: Executor, eventId: number): Promise<MemberRecord[]> {
  return membersWithRoles(db, (eb) =>
    eb.exists(
      eb
        .selectFrom('event_attendance')
        .select('event_attendance.user_id')
        .whereRef('event_attendance.user_id', '=', 'users.id')
        .where('event_attendance.event_id', '=', eventId)
        .where('event_attendance.status', '=', 'zugesagt'),
    ),
  );
}
