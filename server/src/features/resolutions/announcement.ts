import { AGENDA_LIMITS } from '@gremienportal/contracts/meetings';
import { EVENT_TIME_ZONE } from '@gremienportal/contracts/events';
import type { CircularAnnouncement } from '@gremienportal/contracts/beschlussbuch';
import type { AppContext } from '../../context.ts';
import { eventFilter } from '../../policies/events.policy.ts';
import { viewerOfRoles, type Principal } from '../../policies/principal.ts';
import { formatShortDate } from '../../book/book-text.ts';
import { visibleEvent } from '../events/visible-event.ts';
import { RESULT_LABELS, summaryOf } from './resolutions.present.ts';

export const ANNOUNCEMENT_TITLE = 'Bekanntgabe der Umlaufbeschlüsse seit der letzten Sitzung';

/**
 * "Bekanntgabe der Umlaufbeschlüsse seit der letzten Sitzung" for a meeting's agenda: for each
 * committee whose role the meeting invites, the resolutions established by Umlaufverfahren after
 * the committee's previous meeting began (all of them if there was none) and before this one begins.
 */
export async function circularAnnouncement(
  ctx: AppContext,
  principal: Principal,
  eventId: number,
  /** Only this committee's (the Niederschrift of one committee). */
  onlyCommitteeId?: number,
): Promise<CircularAnnouncement> {
  const db = ctx.db.kysely;
  const event = await visibleEvent(db, principal, eventId);
  const committees = await db
    .selectFrom('committees')
    .select(['id', 'name', 'role_id'])
    .where('role_id', 'in', db.selectFrom('event_roles').select('role_id').where('event_id', '=', event.id))
    .orderBy('name')
    .execute();
  const found: CircularAnnouncement['resolutions'] = [];
  const lines: string[] = [];
  for (const committee of committees) {
    if (onlyCommitteeId !== undefined && committee.id !== onlyCommitteeId) continue;
    // The committee's meetings: the events someone holding only the committee's role sees.
    const ofCommittee = eventFilter(viewerOfRoles([{ id: committee.role_id, name: committee.name }]))!;
    const previous = await db
      .selectFrom('events')
      .select((eb) => eb.fn.max('events.start_at').as('start'))
      .where(ofCommittee)
      .where('events.start_at', '<', event.start_at)
      .where('events.id', '!=', event.id)
      .executeTakeFirst();
    const since = previous?.start ?? null;
    let query = db
      .selectFrom('resolutions')
      .selectAll()
      .where('committee_id', '=', committee.id)
      .where('established_at', '<', event.start_at);
    if (since) query = query.where('established_at', '>', since);
    const rows = (await query.orderBy('id').execute())
      .map(summaryOf)
      .filter((row) => row.procedure === 'umlauf');
    if (rows.length === 0) continue;
    const sinceText = since ? ` seit der Sitzung vom ${formatShortDate(since, EVENT_TIME_ZONE)}` : '';
    lines.push(`${committee.name}${sinceText}:`);
    for (const row of rows) {
      lines.push(`• ${row.number} – ${row.title}: ${RESULT_LABELS[row.result]}`);
      found.push({ id: row.id, number: row.number, title: row.title, result: row.result });
    }
  }
  const description =
    lines.length === 0
      ? 'Seit der letzten Sitzung wurden keine Beschlüsse im Umlaufverfahren gefasst.'
      : lines.join('\n');
  return {
    title: ANNOUNCEMENT_TITLE,
    description:
      description.length > AGENDA_LIMITS.description
        ? `${description.slice(0, AGENDA_LIMITS.description - 1)}…`
        : description,
    resolutions: found,
  };
}
