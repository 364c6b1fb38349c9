// Over 300 lines: the iCalendar writer is checked by an independent RFC 5545 reader (with VTIMEZONE rules)
// that exists only for these tests and is about a third of the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers } from '../../support/factories.ts';
import {
  buildCalendar,
  escapeText,
  foldLine,
  timeProperty,
  type CalendarEvent,
} from '../../../src/features/events/events.ics.ts';

// ---------------------------------------------------------------------------------------------
// A small, independent RFC 5545 reader: checks the physical format, unfolds, parses properties
// and components, and resolves TZID times through the file's own VTIMEZONE rules.

interface Property {
  name: string;
  params: Record<string, string>;
  value: string;
}
interface Component {
  name: string;
  props: Property[];
  components: Component[];
}

function readCalendar(text: string): Component {
  const bytes = Buffer.from(text, 'utf8');
  expect(text.endsWith('\r\n'), 'ends with CRLF').toBe(true);
  expect(/\r(?!\n)|(?<!\r)\n/.test(text), 'only CRLF line ends').toBe(false);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const physical: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length - 1; i += 1) {
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) {
      const line = bytes.subarray(start, i);
      expect(line.length, 'at most 75 octets per line').toBeLessThanOrEqual(75);
      // Throws when a fold split a UTF-8 sequence.
      physical.push(decoder.decode(line));
      start = i + 2;
    }
  }
  const logical: string[] = [];
  for (const line of physical) {
    if (line.startsWith(' ') || line.startsWith('\t')) logical[logical.length - 1] += line.slice(1);
    else logical.push(line);
  }
  const root: Component = { name: '', props: [], components: [] };
  const stack = [root];
  for (const line of logical) {
    const match = /^([A-Za-z0-9-]+)((?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^;:,"]*))*):(.*)$/s.exec(line);
    expect(match, `content line: ${line}`).not.toBeNull();
    const [, name, rawParams, value] = match!;
    const params: Record<string, string> = {};
    for (const param of rawParams!.split(';').slice(1)) {
      const eq = param.indexOf('=');
      params[param.slice(0, eq).toUpperCase()] = param.slice(eq + 1).replace(/^"|"$/g, '');
    }
    const upper = name!.toUpperCase();
    if (upper === 'BEGIN') {
      const component: Component = { name: value!, props: [], components: [] };
      stack.at(-1)!.components.push(component);
      stack.push(component);
    } else if (upper === 'END') {
      expect(stack.pop()!.name).toBe(value);
    } else {
      stack.at(-1)!.props.push({ name: upper, params, value: value! });
    }
  }
  expect(stack).toHaveLength(1);
  expect(root.components).toHaveLength(1);
  return root.components[0]!;
}

const prop = (component: Component, name: string) => component.props.find((p) => p.name === name);
const value = (component: Component, name: string) => prop(component, name)?.value;
const child = (component: Component, name: string) => component.components.find((c) => c.name === name)!;
const unescapeText = (text: string) =>
  text.replace(/\\([\\;,nN])/g, (_m, ch: string) => (ch === 'n' || ch === 'N' ? '\n' : ch));

const LOCAL = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;
function localMs(text: string): { ms: number; utc: boolean } {
  const m = LOCAL.exec(text);
  expect(m, `DATE-TIME ${text}`).not.toBeNull();
  const [, y, mo, d, h, mi, s, z] = m!;
  return { ms: Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!), utc: z === 'Z' };
}
const offsetMs = (text: string) => {
  const m = /^([+-])(\d{2})(\d{2})$/.exec(text)!;
  return (m[1] === '-' ? -1 : 1) * (+m[2]! * 60 + +m[3]!) * 60_000;
};

/** The instant of a transition rule (`FREQ=YEARLY;BYMONTH=m;BYDAY=-1SU`) in a given year. */
function transition(rule: Component, year: number): number {
  const rrule = value(rule, 'RRULE')!;
  const parts = Object.fromEntries(rrule.split(';').map((p) => p.split('=') as [string, string]));
  expect(parts.FREQ).toBe('YEARLY');
  expect(parts.BYDAY).toBe('-1SU');
  const start = localMs(value(rule, 'DTSTART')!);
  expect(new Date(start.ms).getUTCFullYear()).toBeLessThanOrEqual(year);
  const month = Number(parts.BYMONTH) - 1;
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  const lastSunday = lastDay.getUTCDate() - lastDay.getUTCDay();
  const wall = new Date(start.ms);
  const local = Date.UTC(year, month, lastSunday, wall.getUTCHours(), wall.getUTCMinutes());
  return local - offsetMs(value(rule, 'TZOFFSETFROM')!);
}

/** DTSTART/DTEND as an instant: UTC as written, or local time through the named VTIMEZONE. */
function instantOf(calendar: Component, p: Property): string {
  const { ms, utc } = localMs(p.value);
  if (utc) {
    expect(p.params.TZID).toBeUndefined();
    return new Date(ms).toISOString();
  }
  const zone = calendar.components.find((c) => c.name === 'VTIMEZONE' && value(c, 'TZID') === p.params.TZID);
  expect(zone, `VTIMEZONE ${p.params.TZID}`).toBeDefined();
  const daylight = child(zone!, 'DAYLIGHT');
  const standard = child(zone!, 'STANDARD');
  const year = new Date(ms).getUTCFullYear();
  const summerFrom = transition(daylight, year);
  const summerUntil = transition(standard, year);
  const candidates = [daylight, standard]
    .map((rule) => {
      const offset = offsetMs(value(rule, 'TZOFFSETTO')!);
      const instant = ms - offset;
      const inSummer = instant >= summerFrom && instant < summerUntil;
      return (rule === daylight) === inSummer ? instant : undefined;
    })
    .filter((instant): instant is number => instant !== undefined)
    .sort((a, b) => a - b);
  expect(candidates.length, `local time ${p.value} exists`).toBeGreaterThan(0);
  // RFC 5545 3.3.5: a local time that occurs twice means its first occurrence.
  return new Date(candidates[0]!).toISOString();
}

// ---------------------------------------------------------------------------------------------

const sample = (overrides: Partial<CalendarEvent> = {}): CalendarEvent => ({
  uid: 'abc@portal.test',
  sequence: 0,
  title: 'Sitzung',
  start: '2026-07-15T16:00:00.000Z',
  end: '2026-07-15T18:00:00.000Z',
  location: 'Saal',
  description: 'Tagesordnung',
  url: 'http://portal.test/events/show/1',
  createdAt: '2026-07-01T10:00:00.000Z',
  updatedAt: '2026-07-01T10:00:00.000Z',
  ...overrides,
});

describe('iCalendar writer', () => {
  it('escapes backslash, semicolon, comma and line breaks', () => {
    expect(escapeText('a,b;c\\d\nzwei\r\ndrei\rvier')).toBe('a\\,b\\;c\\\\d\\nzwei\\ndrei\\nvier');
  });

  it('folds at 75 octets without splitting UTF-8 sequences', () => {
    const line = `DESCRIPTION:${'Äußerst wichtige Sitzung 😀 '.repeat(12)}`;
    const folded = foldLine(line);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(3);
    for (const [index, physical] of lines.entries()) {
      expect(Buffer.byteLength(physical)).toBeLessThanOrEqual(75);
      if (index > 0) expect(physical.startsWith(' ')).toBe(true);
    }
    expect(lines.map((l, i) => (i === 0 ? l : l.slice(1))).join('')).toBe(line);
    expect(foldLine('SUMMARY:kurz')).toBe('SUMMARY:kurz');
  });

  it('writes Berlin wall-clock times in summer and winter', () => {
    expect(timeProperty('DTSTART', '2026-07-15T16:00:00.000Z')).toBe(
      'DTSTART;TZID=Europe/Berlin:20260715T180000',
    );
    expect(timeProperty('DTEND', '2026-01-15T16:00:00.000Z')).toBe(
      'DTEND;TZID=Europe/Berlin:20260115T170000',
    );
  });

  it('falls back to UTC where a wall-clock time would be ambiguous or the rules do not apply', () => {
    // 02:30 on 25 October 2026 happens twice; RFC 5545 reads it as the first (summer time) one.
    expect(timeProperty('DTSTART', '2026-10-25T00:30:00.000Z')).toBe(
      'DTSTART;TZID=Europe/Berlin:20261025T023000',
    );
    expect(timeProperty('DTSTART', '2026-10-25T01:30:00.000Z')).toBe('DTSTART:20261025T013000Z');
    expect(timeProperty('DTSTART', '1990-09-20T10:00:00.000Z')).toBe('DTSTART:19900920T100000Z');
  });

  it('leaves out DTEND when the event has no length', () => {
    const calendar = readCalendar(
      buildCalendar(sample({ end: '2026-07-15T16:00:00.000Z' }), new Date('2026-07-01T12:00:00Z')),
    );
    const event = child(calendar, 'VEVENT');
    expect(prop(event, 'DTEND')).toBeUndefined();
    expect(instantOf(calendar, prop(event, 'DTSTART')!)).toBe('2026-07-15T16:00:00.000Z');
  });

  it('round-trips any time from 1996 to 2100 through DTSTART and the VTIMEZONE', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1996, 0, 1) / 60_000, max: Date.UTC(2100, 0, 1) / 60_000 }),
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        (startMinute, lengthMinutes) => {
          const start = new Date(startMinute * 60_000).toISOString();
          const end = new Date((startMinute + lengthMinutes) * 60_000).toISOString();
          const calendar = readCalendar(buildCalendar(sample({ start, end }), new Date()));
          const event = child(calendar, 'VEVENT');
          expect(instantOf(calendar, prop(event, 'DTSTART')!)).toBe(start);
          if (lengthMinutes > 0) expect(instantOf(calendar, prop(event, 'DTEND')!)).toBe(end);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('round-trips any text through escaping and folding', () => {
    const special = fc.constantFrom(',', ';', '\\', '\n', '\r\n', ':', '"', 'ä', 'ß', '€', '😀', ' ');
    const text = fc.array(fc.oneof(special, fc.string({ unit: 'grapheme', maxLength: 5 })), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(text, text, (titleParts, descriptionParts) => {
        const title = titleParts.join('');
        const description = descriptionParts.join('');
        const calendar = readCalendar(buildCalendar(sample({ title, description }), new Date()));
        const event = child(calendar, 'VEVENT');
        const normalized = (s: string) =>
          s
            .replace(/\r\n|\r|\n/g, '\n')
            .replace(/\t/g, ' ')
            // eslint-disable-next-line no-control-regex
            .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '');
        expect(unescapeText(value(event, 'SUMMARY')!)).toBe(normalized(title));
        expect(unescapeText(value(event, 'DESCRIPTION')!)).toBe(normalized(description));
      }),
      { numRuns: 300 },
    );
  });
});

describe('GET /api/v1/events/{id}/ics', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
  });
  afterAll(() => t.close());

  async function createEvent(body: Record<string, unknown>): Promise<PortalEvent> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: users.admin.headers,
      payload: { roles: ['Vertreter'], location: 'Saal 1', description: 'Tagesordnung folgt.', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event;
  }
  async function ics(id: number) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/events/${id}/ics`,
      headers: users.vertreter.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return { res, calendar: readCalendar(res.body) };
  }

  it('is a valid calendar whose times read back as the event times (summer and winter)', async () => {
    for (const [start, end] of [
      ['2026-07-15T18:00', '2026-07-15T21:30'],
      ['2026-12-10T19:00', '2026-12-10T22:00'],
      ['2027-03-28T01:30', '2027-03-28T04:00'],
    ]) {
      const event = await createEvent({ title: 'Sommerfest', start, end });
      const { res, calendar } = await ics(event.id);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="Sommerfest.ics"; filename*=UTF-8''Sommerfest.ics`,
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(calendar.name).toBe('VCALENDAR');
      expect(value(calendar, 'VERSION')).toBe('2.0');
      expect(value(calendar, 'PRODID')).toBe('-//Gremienportal//Events//DE');
      expect(value(calendar, 'CALSCALE')).toBe('GREGORIAN');
      expect(value(calendar, 'METHOD')).toBe('PUBLISH');
      const vevent = child(calendar, 'VEVENT');
      expect(prop(vevent, 'DTSTART')!.params.TZID).toBe('Europe/Berlin');
      expect(instantOf(calendar, prop(vevent, 'DTSTART')!)).toBe(event.start);
      expect(instantOf(calendar, prop(vevent, 'DTEND')!)).toBe(event.end);
      const row = await t.db.kysely
        .selectFrom('events')
        .select('uid')
        .where('id', '=', event.id)
        .executeTakeFirstOrThrow();
      expect(value(vevent, 'UID')).toBe(row.uid);
      expect(value(vevent, 'SEQUENCE')).toBe('0');
      expect(value(vevent, 'DTSTAMP')).toBe('20261121T100000Z');
      expect(value(vevent, 'SUMMARY')).toBe('Sommerfest');
      expect(value(vevent, 'LOCATION')).toBe('Saal 1');
      expect(value(vevent, 'URL')).toBe(`http://portal.test/events/show/${event.id}`);
    }
  });

  it('escapes and folds title, place and description', async () => {
    const title = 'Sitzung: Haushalt, Wahl; Sonstiges \\ Ä';
    const description = `Tagesordnung:\n1. Begrüßung, Bericht; Aussprache\n2. ${'Lange Erläuterung der Beschlussvorlage. '.repeat(8)}Ende.`;
    const event = await createEvent({
      title,
      description,
      location: 'Großer Saal, 2. OG; Eingang B',
      start: '2026-09-01T18:00',
      end: '2026-09-01T20:00',
    });
    const { res, calendar } = await ics(event.id);
    expect(res.body).toContain('SUMMARY:Sitzung: Haushalt\\, Wahl\\; Sonstiges \\\\ Ä');
    const vevent = child(calendar, 'VEVENT');
    expect(unescapeText(value(vevent, 'SUMMARY')!)).toBe(title);
    expect(unescapeText(value(vevent, 'DESCRIPTION')!)).toBe(description);
    expect(unescapeText(value(vevent, 'LOCATION')!)).toBe('Großer Saal, 2. OG; Eingang B');
    expect(res.body.split('\r\n').some((line) => line.startsWith(' '))).toBe(true);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="[^"]+\.ics"; filename\*=UTF-8''\S+\.ics$/,
    );
    expect(decodeURIComponent(res.headers['content-disposition']!.split("''")[1]!)).toBe(
      'Sitzung: Haushalt, Wahl; Sonstiges _ Ä.ics',
    );
  });

  it('keeps its UID across updates and raises SEQUENCE each time', async () => {
    const event = await createEvent({
      title: 'Beiratssitzung',
      start: '2026-05-05T10:00',
      end: '2026-05-05T12:00',
    });
    const first = child((await ics(event.id)).calendar, 'VEVENT');
    for (const [sequence, start, end] of [
      ['1', '2026-05-06T10:00', '2026-05-06T12:00'],
      ['2', '2026-11-06T09:00', '2026-11-06T11:00'],
    ] as const) {
      t.clock.advance(60_000);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
        payload: {
          title: 'Beiratssitzung (verschoben)',
          start,
          end,
          location: 'Saal 1',
          description: 'Tagesordnung folgt.',
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const updated = res.json().event as PortalEvent;
      const { calendar } = await ics(event.id);
      const vevent = child(calendar, 'VEVENT');
      expect(value(vevent, 'UID')).toBe(value(first, 'UID'));
      expect(value(vevent, 'SEQUENCE')).toBe(sequence);
      expect(value(vevent, 'SUMMARY')).toBe('Beiratssitzung (verschoben)');
      expect(instantOf(calendar, prop(vevent, 'DTSTART')!)).toBe(updated.start);
      expect(instantOf(calendar, prop(vevent, 'DTEND')!)).toBe(updated.end);
      expect(value(vevent, 'LAST-MODIFIED')).not.toBe(value(first, 'LAST-MODIFIED'));
    }
  });

  it('gives every event its own UID', async () => {
    const a = await createEvent({ title: 'Termin A', start: '2026-05-05T10:00', end: '2026-05-05T12:00' });
    const b = await createEvent({ title: 'Termin B', start: '2026-05-05T10:00', end: '2026-05-05T12:00' });
    const uidA = value(child((await ics(a.id)).calendar, 'VEVENT'), 'UID');
    const uidB = value(child((await ics(b.id)).calendar, 'VEVENT'), 'UID');
    expect(uidA).toMatch(/^[0-9a-f-]{36}@portal\.test$/);
    expect(uidA).not.toBe(uidB);
  });
});
