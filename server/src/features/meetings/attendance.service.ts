import { announcedEvent } from '../events/events.mails.ts';
import { formatBerlinDateTime } from '@gremienportal/contracts/audit';
import { toBerlinLocal } from '@gremienportal/contracts/events';
import {
  ATTENDANCE_CSV_HEADER,
  ATTENDANCE_LABELS,
  ATTENDANCE_OPEN_LABEL,
  MEETING_MESSAGES,
  REMINDER_INTERVAL_MINUTES,
  type AttendanceEntry,
  type AttendanceList,
  type MyAttendance,
  type PutAttendanceBody,
} from '@gremienportal/contracts/meetings';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { MINUTE } from '../../clock.ts';
import { toCsv } from '../../http/csv.ts';
import {
  compareByName,
  listedPerson,
  personColumns,
  type MemberRecord,
  reminderAvailableAt,
  roundUpToMinute,
} from '../../db/member-lists.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { canSeeEvent, isInvitee } from '../../policies/events.policy.ts';
import { viewerOfRoles } from '../../policies/principal.ts';
import { auditOnEvent, recordAudit } from '../audit/audit-log.service.ts';
import { answersToEvent, attendees, saveAnswer } from './attendance.repository.ts';
import { toMyAttendance, type AnswerRow } from '../../db/meeting-facts.ts';
import { lockEventRow, updateEventRow, type EventRecord } from '../events/events.service.ts';
import { attendanceReminderMail } from './meetings.mails.ts';
import { visibleEvent } from '../events/visible-event.ts';

const REMINDER_INTERVAL_MS = REMINDER_INTERVAL_MINUTES * MINUTE;

/** "14:05": Berlin wall-clock time, rounded up to the full minute (never earlier than allowed). */
function berlinTimeOfDay(instant: Date): string {
  return toBerlinLocal(roundUpToMinute(instant)).slice(11, 16);
}

function toEntry(user: MemberRecord, answer: AnswerRow | undefined): AttendanceEntry {
  return {
    user: listedPerson(user),
    status: answer?.status ?? null,
    comment: answer?.comment ?? '',
    answered_at: answer?.answered_at ?? null,
  };
}

/** Invitees who may see the event and have not answered. */
function withoutAnswer(
  event: EventRecord,
  people: MemberRecord[],
  answers: Map<number, AnswerRow>,
): MemberRecord[] {
  return people.filter(
    (user) =>
      !answers.has(user.id) && isInvitee(event, user) && canSeeEvent(viewerOfRoles(user.roles), event),
  );
}

export function attendanceService(ctx: AppContext) {
  const db = ctx.db.kysely;

  async function list(
    principal: Principal,
    id: number,
  ): Promise<{ event: EventRecord; list: AttendanceList }> {
    const event = await visibleEvent(db, principal, id);
    const [people, answers] = await Promise.all([
      attendees(
        db,
        id,
        event.roles.map((role) => role.id),
      ),
      answersToEvent(db, id),
    ]);
    const entries = people
      .filter((user) => user.active || answers.has(user.id))
      .map((user) => toEntry(user, answers.get(user.id)))
      .sort((a, b) => compareByName(a.user, b.user));
    const count = (status: AttendanceEntry['status']) =>
      entries.filter((entry) => entry.status === status).length;
    const available = reminderAvailableAt(event.reminder_sent_at, ctx.clock.now(), REMINDER_INTERVAL_MS);
    return {
      event,
      list: {
        entries,
        counts: {
          zugesagt: count('zugesagt'),
          abgesagt: count('abgesagt'),
          vielleicht: count('vielleicht'),
          offen: count(null),
        },
        reminder_sent_at: event.reminder_sent_at,
        reminder_available_at: available?.toISOString() ?? null,
      },
    };
  }

  return {
    /** The signed-in member's answer; a second one replaces the first. */
    async answer(actor: Actor, id: number, body: PutAttendanceBody): Promise<MyAttendance> {
      const now = ctx.clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        await lockEventRow(trx, ctx.db.dialect, id);
        const event = await visibleEvent(trx, actor.principal, id);
        const row = {
          event_id: id,
          user_id: actor.principal.id,
          status: body.status,
          comment: body.comment,
          answered_at: now,
        };
        await saveAnswer(trx, row);
        // The answer only: a comment is the member's own words and stays out of the log.
        await recordAudit(trx, ctx.clock, {
          ...auditOnEvent(actor, event),
          action: 'event.attendance_answered',
          details: { status: body.status },
        });
        return toMyAttendance(row);
      });
    },

    async list(principal: Principal, id: number): Promise<AttendanceList> {
      return (await list(principal, id)).list;
    },

    /** The list as CSV for spreadsheets (formula-safe, UTF-8 with BOM), with its file name. */
    async exportCsv(principal: Principal, id: number): Promise<{ title: string; body: string }> {
      const { event, list: attendance } = await list(principal, id);
      const rows = attendance.entries.map((entry) => [
        ...personColumns(entry.user),
        entry.status ? ATTENDANCE_LABELS[entry.status] : ATTENDANCE_OPEN_LABEL,
        entry.comment,
        entry.answered_at ? formatBerlinDateTime(entry.answered_at) : '',
      ]);
      return { title: `Teilnahme ${event.title}`, body: toCsv(ATTENDANCE_CSV_HEADER, rows) };
    },

    /**
     * "Erinnerung senden": mails every holder of the event's roles without an answer, at most once
     * per interval per event. The interval is checked on the locked event row, so two admins
     * clicking at once send one reminder; nobody to remind leaves the interval unspent.
     */
    async remind(actor: Actor, id: number): Promise<{ message: string; sent: number }> {
      return db.transaction().execute(async (trx) => {
        await lockEventRow(trx, ctx.db.dialect, id);
        const event = await visibleEvent(trx, actor.principal, id);
        const now = ctx.clock.now();
        const available = reminderAvailableAt(event.reminder_sent_at, now, REMINDER_INTERVAL_MS);
        if (available) {
          throw new AppError('conflict', MEETING_MESSAGES.reminderTooSoon(berlinTimeOfDay(available)));
        }
        const people = await attendees(
          trx,
          id,
          event.roles.map((role) => role.id),
        );
        const recipients = withoutAnswer(event, people, await answersToEvent(trx, id));
        if (recipients.length === 0) return { message: MEETING_MESSAGES.reminderNobody, sent: 0 };
        const announced = announcedEvent(event);
        await enqueueMail(
          trx,
          ctx.clock,
          recipients.map((user) => attendanceReminderMail(user, announced, ctx.config.PUBLIC_URL)),
        );
        await updateEventRow(trx, id, { reminder_sent_at: now.toISOString() });
        await recordAudit(trx, ctx.clock, {
          ...auditOnEvent(actor, event),
          action: 'event.attendance_reminded',
          // Not `count`: that key marks an entry standing for several equal events (audit labels).
          details: { recipients: recipients.length },
        });
        return { message: MEETING_MESSAGES.reminderSent(recipients.length), sent: recipients.length };
      });
    },
  };
}
