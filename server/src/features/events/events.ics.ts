import { EVENT_TIME_ZONE, fromBerlinLocal, wallClockInBerlin } from '@gremienportal/contracts/events';
import type { EventRow } from '../../db/schema.ts';

/**
 * iCalendar (RFC 5545) export of events, written by hand (decision 041): times as Europe/Berlin
 * wall-clock times with a VTIMEZONE, so calendars show the time as announced; CRLF line ends,
 * lines folded at 75 octets, TEXT values escaped. One event, a feed of many, or the cancellation
 * of a deleted one (decision 130).
 */
export interface CalendarEvent {
  uid: string;
  sequence: number;
  title: string;
  /** ISO 8601 UTC. */
  start: string;
  end: string;
  location: string;
  description: string;
  url: string;
  createdAt: string;
  updatedAt: string;
  /** Withdrawn: written with STATUS:CANCELLED (see `cancelledEntry`). */
  cancelled?: boolean;
}

/** Someone named in a cancellation (RFC 5546 3.2.5 asks for the ORGANIZER and the ATTENDEEs). */
export interface CalendarPerson {
  name: string;
  email: string;
}

export interface CalendarOptions {
  /**
   * PUBLISH (default): an export or a feed; REQUEST: an update mailed to an invitee; CANCEL: every
   * entry is withdrawn (iTIP, RFC 5546).
   */
  method?: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  /** A subscribed feed's name and how often calendars should fetch it again (ISO 8601 duration). */
  feed?: { name: string; refresh: string };
  organizer?: CalendarPerson;
  attendee?: CalendarPerson;
}

export const PRODUCT_ID = '-//Gremienportal//Events//DE';

/** An event row as a calendar entry; `url` opens it in the portal. */
export function calendarEventOf(
  row: Pick<
    EventRow,
    | 'id'
    | 'uid'
    | 'sequence'
    | 'title'
    | 'start_at'
    | 'end_at'
    | 'location'
    | 'description'
    | 'created_at'
    | 'updated_at'
  >,
  publicUrl: string,
): CalendarEvent {
  return {
    uid: row.uid,
    sequence: row.sequence,
    title: row.title,
    start: row.start_at,
    end: row.end_at,
    location: row.location,
    description: row.description,
    url: `${publicUrl}/events/show/${row.id}`,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The German rules in force since 1996 (last Sunday of March 02:00 → 03:00, last Sunday of
 * October 03:00 → 02:00). Times these rules would describe wrongly are written in UTC instead.
 */
const RULES_VALID_FROM = Date.UTC(1996, 0, 1);
const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  `TZID:${EVENT_TIME_ZONE}`,
  `X-LIC-LOCATION:${EVENT_TIME_ZONE}`,
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `20261121T100000Z`. */
export function utcDateTime(iso: string): string {
  const d = new Date(iso);
  return (
    `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  );
}

/**
 * `DTSTART;TZID=Europe/Berlin:20260715T180000`, or the UTC form when the Berlin wall-clock time
 * would not lead back to the same instant (the second pass of the hour before the autumn change,
 * which RFC 5545 reads as the first) or predates the VTIMEZONE rules.
 */
export function timeProperty(name: 'DTSTART' | 'DTEND', iso: string): string {
  const instant = new Date(Math.floor(new Date(iso).getTime() / 1000) * 1000);
  const wall = wallClockInBerlin(instant);
  if (instant.getTime() < RULES_VALID_FROM || fromBerlinLocal(wall).getTime() !== instant.getTime()) {
    return `${name}:${utcDateTime(iso)}`;
  }
  const local =
    `${pad(wall.year, 4)}${pad(wall.month)}${pad(wall.day)}` +
    `T${pad(wall.hour)}${pad(wall.minute)}${pad(wall.second)}`;
  return `${name};TZID=${EVENT_TIME_ZONE}:${local}`;
}

/** RFC 5545 3.3.11: backslash, semicolon, comma and line breaks escaped; other controls dropped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/\t/g, ' ')
  );
}

/**
 * RFC 5545 3.1: lines longer than 75 octets are split, each continuation starting with a space;
 * never inside a UTF-8 sequence (nor between the halves of a surrogate pair).
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    const limit = parts.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/**
 * The entry that withdraws a published event: SEQUENCE one above the last one published, so that
 * calendars take it over the entry they hold (RFC 5546 2.1.4); LAST-MODIFIED is the cancellation.
 */
export function cancelledEntry(event: CalendarEvent, cancelledAt: string): CalendarEvent {
  return { ...event, sequence: event.sequence + 1, updatedAt: cancelledAt, cancelled: true };
}

/** `CN="Name":mailto:address`; a parameter value may not hold DQUOTE or controls (RFC 5545 3.2). */
function person(name: 'ORGANIZER' | 'ATTENDEE', who: CalendarPerson): string {
  // eslint-disable-next-line no-control-regex
  const cn = who.name.replace(/["\u0000-\u001f\u007f]/g, '').trim();
  return `${name};CN="${cn}":mailto:${who.email}`;
}

function eventLines(event: CalendarEvent, stamp: Date, options: CalendarOptions): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `SEQUENCE:${event.sequence}`,
    `DTSTAMP:${utcDateTime(stamp.toISOString())}`,
    `CREATED:${utcDateTime(event.createdAt)}`,
    `LAST-MODIFIED:${utcDateTime(event.updatedAt)}`,
    timeProperty('DTSTART', event.start),
    // DTEND must lie after DTSTART; an event without length ends when it starts (RFC 5545 3.6.1).
    ...(event.end > event.start ? [timeProperty('DTEND', event.end)] : []),
    `SUMMARY:${escapeText(event.title)}`,
    `LOCATION:${escapeText(event.location)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `URL:${event.url}`,
    ...(event.cancelled ? ['STATUS:CANCELLED'] : []),
    ...(options.organizer ? [person('ORGANIZER', options.organizer)] : []),
    ...(options.attendee ? [person('ATTENDEE', options.attendee)] : []),
    'END:VEVENT',
  ];
}

/**
 * One VCALENDAR with every event given. With `method: 'CANCEL'` each must be a cancelled entry
 * (`cancelledEntry`); a feed (PUBLISH) may mix live and cancelled ones.
 */
export function buildCalendar(
  events: CalendarEvent | readonly CalendarEvent[],
  stamp: Date,
  options: CalendarOptions = {},
): string {
  const list: readonly CalendarEvent[] = Array.isArray(events) ? events : [events as CalendarEvent];
  const method = options.method ?? 'PUBLISH';
  if (method === 'CANCEL' && list.some((event) => !event.cancelled)) {
    throw new Error('METHOD:CANCEL withdraws only cancelled entries');
  }
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    ...(options.feed
      ? [
          `X-WR-CALNAME:${escapeText(options.feed.name)}`,
          `X-WR-TIMEZONE:${EVENT_TIME_ZONE}`,
          `REFRESH-INTERVAL;VALUE=DURATION:${options.feed.refresh}`,
          `X-PUBLISHED-TTL:${options.feed.refresh}`,
        ]
      : []),
    ...VTIMEZONE,
    ...list.flatMap((event) => eventLines(event, stamp, options)),
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
