import { EVENT_TIME_ZONE, fromBerlinLocal, wallClockInBerlin } from '@gremienportal/contracts/events';

/**
 * iCalendar (RFC 5545) export of one event, written by hand (decision 041): times as Europe/Berlin
 * wall-clock times with a VTIMEZONE, so calendars show the time as announced; CRLF line ends,
 * lines folded at 75 octets, TEXT values escaped.
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
}

export const PRODUCT_ID = '-//Gremienportal//Events//DE';

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

export function buildCalendar(event: CalendarEvent, stamp: Date): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...VTIMEZONE,
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
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
