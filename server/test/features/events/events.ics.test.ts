// Over 300 lines: the writer's rules (times, escaping, feeds, cancellations) and the route's answers share one
// set of samples and the reader in support/icalendar-reader.ts; split, each half would repeat the setup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers } from '../../support/factories.ts';
import {
  child,
  childrenOf,
  instantOf,
  prop,
  readCalendar,
  unescapeText,
  value,
} from '../../support/icalendar-reader.ts';
import {
  buildCalendar,
  cancelledEntry,
  escapeText,
  foldLine,
  timeProperty,
  type CalendarEvent,
} from '../../../src/features/events/events.ics.ts';

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

  it('writes several events into one feed, each with its own UID and times', () => {
    const events = [
      sample({ uid: 'eins@portal.test', title: 'Erste' }),
      sample({
        uid: 'zwei@portal.test',
        title: 'Zweite',
        sequence: 4,
        start: '2026-12-01T17:00:00.000Z',
        end: '2026-12-01T19:00:00.000Z',
      }),
      cancelledEntry(
        sample({ uid: 'drei@portal.test', title: 'Dritte', sequence: 2 }),
        '2026-07-10T08:00:00.000Z',
      ),
    ];
    const calendar = readCalendar(
      buildCalendar(events, new Date('2026-07-01T12:00:00Z'), {
        feed: { name: 'Gremienportal', refresh: 'PT1H' },
      }),
    );
    expect(value(calendar, 'METHOD')).toBe('PUBLISH');
    expect(value(calendar, 'X-WR-CALNAME')).toBe('Gremienportal');
    expect(value(calendar, 'REFRESH-INTERVAL')).toBe('PT1H');
    expect(prop(calendar, 'REFRESH-INTERVAL')!.params.VALUE).toBe('DURATION');
    const vevents = childrenOf(calendar, 'VEVENT');
    expect(vevents.map((e) => value(e, 'UID'))).toEqual([
      'eins@portal.test',
      'zwei@portal.test',
      'drei@portal.test',
    ]);
    expect(vevents.map((e) => value(e, 'SEQUENCE'))).toEqual(['0', '4', '3']);
    expect(vevents.map((e) => value(e, 'STATUS'))).toEqual([undefined, undefined, 'CANCELLED']);
    expect(instantOf(calendar, prop(vevents[1]!, 'DTSTART')!)).toBe('2026-12-01T17:00:00.000Z');
    expect(value(vevents[2]!, 'LAST-MODIFIED')).toBe('20260710T080000Z');
  });

  it('writes a cancellation: METHOD:CANCEL, STATUS:CANCELLED, SEQUENCE one higher, same UID', () => {
    const published = sample({ sequence: 3 });
    const calendar = readCalendar(
      buildCalendar(cancelledEntry(published, '2026-07-10T08:00:00.000Z'), new Date('2026-07-10T08:00:00Z'), {
        method: 'CANCEL',
        organizer: { name: 'Gremien"portal', email: 'no-reply@example.org' },
        attendee: { name: 'Erika Muster', email: 'erika@example.org' },
      }),
    );
    expect(value(calendar, 'METHOD')).toBe('CANCEL');
    const vevent = child(calendar, 'VEVENT');
    expect(childrenOf(calendar, 'VEVENT')).toHaveLength(1);
    expect(value(vevent, 'UID')).toBe(published.uid);
    expect(value(vevent, 'SEQUENCE')).toBe('4');
    expect(value(vevent, 'STATUS')).toBe('CANCELLED');
    expect(value(vevent, 'ORGANIZER')).toBe('mailto:no-reply@example.org');
    expect(prop(vevent, 'ORGANIZER')!.params.CN).toBe('Gremienportal');
    expect(value(vevent, 'ATTENDEE')).toBe('mailto:erika@example.org');
    expect(prop(vevent, 'ATTENDEE')!.params.CN).toBe('Erika Muster');
    expect(instantOf(calendar, prop(vevent, 'DTSTART')!)).toBe(published.start);
  });

  it('refuses to send a live entry with METHOD:CANCEL', () => {
    expect(() => buildCalendar(sample(), new Date(), { method: 'CANCEL' })).toThrow();
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

  it('raises SEQUENCE when only the place changes, and keeps the UID', async () => {
    const event = await createEvent({ title: 'Klausur', start: '2026-05-05T10:00', end: '2026-05-05T12:00' });
    const before = child((await ics(event.id)).calendar, 'VEVENT');
    t.clock.advance(60_000);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/events/${event.id}`,
      headers: users.admin.headers,
      payload: {
        title: 'Klausur',
        start: '2026-05-05T10:00',
        end: '2026-05-05T12:00',
        location: 'Tagungshotel am See',
        description: 'Tagesordnung folgt.',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = child((await ics(event.id)).calendar, 'VEVENT');
    expect(value(after, 'UID')).toBe(value(before, 'UID'));
    expect(Number(value(after, 'SEQUENCE'))).toBe(Number(value(before, 'SEQUENCE')) + 1);
    expect(value(after, 'LOCATION')).toBe('Tagungshotel am See');
    expect(value(after, 'DTSTART')).toBe(value(before, 'DTSTART'));
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
