import { berlinDate } from '@gremienportal/contracts/audit';
import { EVENT_TIME_ZONE } from '@gremienportal/contracts/events';
import type { MinutesContent, MinutesSection, QuotedResolution } from '@gremienportal/contracts/minutes';
import type { AppContext } from '../../context.ts';
import { formatClock } from '../../book/book-text.ts';
import type { Principal } from '../../policies/principal.ts';
import { viewerOf } from '../../policies/principal.ts';
import type { EventRecord } from '../events/events.service.ts';
import { visibleAgenda } from '../meetings/agenda.service.ts';
import { circularAnnouncement } from '../resolutions/announcement.ts';
import * as repo from './minutes.repository.ts';

/*
 * The first draft of a Niederschrift (decision 193), from what the portal knows of the meeting:
 * the header from the event and the committee's Vorsitz and Schriftführung on its day, the
 * attendance from the members' answers (Zusage: anwesend, Absage: entschuldigt, no answer or
 * "vielleicht": abwesend, to be corrected by hand), one section per agenda item with its
 * documents and its motions (established resolutions verbatim from the Beschlussbuch's record),
 * and the Bekanntgabe der Umlaufbeschlüsse since the committee's previous meeting.
 */

interface ResolutionRecordText {
  number: string;
  title: string;
  text: string;
  reason: string;
  counts: { ja: number; nein: number; enthaltung: number } | null;
  names: { name: string; choice: string }[] | null;
  conflicts: string[];
}

const CHOICE: Record<string, string> = { ja: 'Ja', nein: 'Nein', enthaltung: 'Enthaltung' };

function quote(
  motion: { id: number; title: string; text: string },
  entry?: { id: number; record: string },
): QuotedResolution {
  if (!entry) {
    return {
      resolution_id: null,
      motion_id: motion.id,
      number: null,
      title: motion.title,
      text: motion.text,
      result: 'Noch nicht festgestellt.',
      counts: null,
      names: null,
      conflicts: null,
    };
  }
  const record = JSON.parse(entry.record) as ResolutionRecordText;
  return {
    resolution_id: entry.id,
    motion_id: motion.id,
    number: record.number,
    title: record.title,
    text: record.text,
    result: record.reason,
    counts: record.counts
      ? `Ja ${record.counts.ja} · Nein ${record.counts.nein} · Enthaltung ${record.counts.enthaltung}`
      : null,
    names: record.names
      ? record.names.map((n) => `${n.name}: ${CHOICE[n.choice] ?? n.choice}`).join('; ')
      : null,
    conflicts:
      record.conflicts.length > 0
        ? `Wegen eines Interessenkonflikts nicht beteiligt: ${record.conflicts.join(', ')}`
        : null,
  };
}

export async function draftContent(
  ctx: AppContext,
  principal: Principal,
  event: EventRecord,
  committeeId: number,
): Promise<MinutesContent> {
  const db = ctx.db.kysely;
  const day = berlinDate(new Date(event.start_at));
  const [members, answers, agenda, motions, announcement] = await Promise.all([
    repo.membersOn(db, committeeId, day),
    repo.answersOf(db, event.id),
    visibleAgenda(ctx, viewerOf(principal), event.id),
    repo.motionsOfEvent(db, event.id, committeeId),
    circularAnnouncement(ctx, principal, event.id, committeeId),
  ]);
  const resolutions = await repo.resolutionsOfMotions(
    db,
    motions.map((m) => m.id),
  );
  const nameOf = (m: { firstname: string; lastname: string }) => `${m.firstname} ${m.lastname}`;
  const holder = (fn: string) =>
    members
      .filter((m) => m.function === fn)
      .map(nameOf)
      .join(', ');
  const status = new Map<number | null, string>(answers.map((a) => [a.user_id, a.status]));
  const voting = [
    ...new Map(members.filter((m) => m.function !== 'ersatzmitglied').map((m) => [m.user_id, m])).values(),
  ];
  const attendance = {
    present: voting.filter((m) => status.get(m.user_id) === 'zugesagt').map(nameOf),
    excused: voting.filter((m) => status.get(m.user_id) === 'abgesagt').map(nameOf),
    absent: voting.filter((m) => !['zugesagt', 'abgesagt'].includes(status.get(m.user_id) ?? '')).map(nameOf),
    guests: [],
  };
  const sections: MinutesSection[] = [];
  if (announcement.resolutions.length > 0) {
    sections.push({
      key: 'bekanntgabe',
      kind: 'bekanntgabe',
      number: '',
      title: announcement.title,
      documents: [],
      body: announcement.description,
      resolutions: [],
    });
  }
  for (const item of agenda) {
    const own = motions.filter((m) => m.agenda_item_id === item.id);
    sections.push({
      key: `item-${item.id}`,
      kind: 'item',
      number: item.number,
      title: item.title,
      documents: item.documents.map((d) => ({ id: d.id, title: d.title })),
      body: '',
      resolutions: own.map((m) => quote(m, resolutions.filter((r) => r.motion_id === m.id).at(-1))),
    });
  }
  return {
    header: {
      form: 'praesenz',
      date: day,
      start: formatClock(event.start_at, EVENT_TIME_ZONE),
      end: formatClock(event.end_at, EVENT_TIME_ZONE),
      place: event.location.slice(0, 300),
      chair: holder('vorsitz'),
      secretary: holder('schriftfuehrung'),
    },
    attendance,
    sections,
  };
}
