import type { Kysely, Transaction } from 'kysely';
import { calendarChanged, factChanges, type EventFactsState } from '@gremienportal/contracts/meeting-notices';
import type { AppContext } from '../../context.ts';
import type { Database, EventRow } from '../../db/schema.ts';
import { membersWithRoles, type MemberRecord } from '../../db/member-lists.ts';
import { composeMail, type MailBlock } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { oneLine } from '../../mail/text.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { agendaCounts } from '../../db/meeting-facts.ts';
import { findEvent, updateEvent } from './events.repository.ts';
import { canSeeEvent, inviteeFilter } from '../../policies/events.policy.ts';
import { viewerOfRoles } from '../../policies/principal.ts';
import { buildCalendar, calendarEventOf } from './events.ics.ts';
import { portalOrganizer } from './calendar-feed.service.ts';
import { announcedEvent, eventFacts, eventPageUrl } from './events.mails.ts';

/*
 * "Mitglieder benachrichtigen" (decision 181): a change of an event's time, place or papers,
 * mailed with what changed and, where the calendar entry changed, the entry itself as an iTIP
 * REQUEST with the raised SEQUENCE, so that calendars that took the event move it.
 */

type Trx = Transaction<Database>;

/**
 * What the last "Tagesordnung veröffentlichen" told (events.agenda_published_state, JSON): the
 * facts, the items by number and title, and every linked document with the version it had.
 */
export interface PublishedAgendaState {
  facts: EventFactsState;
  items: { number: string; title: string }[];
  /** `content`: the stored object of the version then linked; another one is a new Fassung. */
  documents: { id: number; title: string; content: string; item: string }[];
}

/**
 * The published state after a notice told the members `facts`: a later publication does not
 * tell them again. Null while the agenda was never published.
 */
export function stateAfterNotice(state: string | null, facts: EventFactsState): string | null {
  if (state === null) return null;
  return JSON.stringify({ ...(JSON.parse(state) as PublishedAgendaState), facts });
}

/** An event row's facts as a member is told them. */
export const factsOf = (
  event: Pick<EventRow, 'title' | 'start_at' | 'end_at' | 'location' | 'description'>,
) =>
  ({
    title: event.title,
    start: event.start_at,
    end: event.end_at,
    location: event.location,
    description: event.description,
  }) satisfies EventFactsState;

/** "Sitzung" for a meeting with a Tagesordnung, "Termin" otherwise (product.md P14). */
export const meetingWord = (agendaCount: number) => (agendaCount > 0 ? 'Sitzung' : 'Termin');
const DATIVE = { Sitzung: 'der folgenden Sitzung', Termin: 'dem folgenden Termin' } as const;

/** The event as an iCalendar REQUEST for one invitee (RFC 5546 3.2.2: an update of a published event). */
export function calendarRequest(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  event: EventRow,
  attendee: { firstname: string; lastname: string; email: string },
): string {
  return buildCalendar(calendarEventOf(event, ctx.config.PUBLIC_URL), ctx.clock.now(), {
    method: 'REQUEST',
    organizer: portalOrganizer(ctx.config),
    attendee: { name: `${attendee.firstname} ${attendee.lastname}`, email: attendee.email },
  });
}

/** Active accounts holding one of `roleIds` who can see `event`: whom a notice about it reaches. */
export async function inviteesSeeing(
  db: Kysely<Database> | Trx,
  event: { roles: readonly { id: number }[] },
  roleIds: readonly number[],
): Promise<MemberRecord[]> {
  if (roleIds.length === 0) return [];
  const members = await membersWithRoles(db, inviteeFilter(roleIds));
  return members.filter((member) => canSeeEvent(viewerOfRoles(member.roles), event));
}

/** One change mail: what changed, the event as it is now, the link, and the calendar entry. */
export function eventChangedMail(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  user: MemberRecord,
  event: EventRow,
  change: {
    word: keyof typeof DATIVE;
    lines: readonly string[];
    calendar: boolean;
    extra?: readonly MailBlock[];
  },
): OutgoingMail {
  const announced = announcedEvent(event);
  return composeMail({
    to: user.email,
    subject: `Geändert: ${oneLine(event.title)}`,
    recipient: user,
    blocks: [
      { kind: 'paragraph', lines: [`an ${DATIVE[change.word]} hat sich etwas geändert:`] },
      { kind: 'list', title: 'Was sich geändert hat', items: change.lines.map((text) => ({ text })) },
      eventFacts(announced),
      ...(change.extra ?? []),
      { kind: 'action', label: `${change.word} ansehen`, url: eventPageUrl(ctx.config.PUBLIC_URL, event.id) },
      ...(change.calendar
        ? [
            {
              kind: 'paragraph' as const,
              lines: [
                'Der beigefügte Kalendereintrag ändert den Termin in Ihrem Kalender, wenn Ihr Kalender ihn von hier übernommen hat.',
              ],
            },
          ]
        : []),
    ],
    ...(change.calendar
      ? { calendar: { method: 'REQUEST' as const, content: calendarRequest(ctx, event, user) } }
      : {}),
  });
}

/** What a notice about an update tells: the facts as members read them, and a new information file. */
export function toldByNotice(
  before: EventRow,
  patch: Pick<EventRow, 'title' | 'start_at' | 'end_at' | 'location' | 'description'>,
  newFile: boolean,
): string[] {
  return [
    ...factChanges(factsOf(before), factsOf(patch)),
    ...(newFile ? ['Eine neue Informationsdatei ist angehängt.'] : []),
  ];
}

/**
 * "Mitglieder benachrichtigen" after an update, in its transaction: queues one mail per invitee
 * holding one of `roleIds` who sees the updated event, saying `lines` (never empty: the caller
 * refuses a notice about nothing), and records the facts as told for the next agenda
 * publication. Answers the mails queued.
 */
export async function sendChangeNotice(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  trx: Trx,
  input: { before: EventRow; id: number; roleIds: readonly number[]; lines: readonly string[] },
): Promise<OutgoingMail[]> {
  const after = (await findEvent(trx, input.id))!;
  const recipients = await inviteesSeeing(trx, after, input.roleIds);
  const calendar = calendarChanged(factsOf(input.before), factsOf(after));
  const word = meetingWord((await agendaCounts(trx, [input.id])).get(input.id) ?? 0);
  const mails = recipients.map((user) =>
    eventChangedMail(ctx, user, after, { word, lines: input.lines, calendar }),
  );
  await enqueueMail(trx, ctx.clock, mails);
  if (after.agenda_published_state !== null) {
    await updateEvent(trx, input.id, {
      agenda_published_state: stateAfterNotice(after.agenda_published_state, factsOf(after)),
    });
  }
  return mails;
}
