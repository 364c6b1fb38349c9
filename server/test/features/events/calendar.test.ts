import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '@gremienportal/contracts/common';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { AttendanceStatus } from '../../../src/db/schema.ts';
import { fileTransport, type MailMessage } from '../../../src/mail/transport.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, type TestUser } from '../../support/factories.ts';
import { child, instantOf, prop, readCalendar, value } from '../../support/icalendar-reader.ts';

/**
 * Calendars that update (decision 130): a deleted event answers its calendar link with
 * a cancellation for those who could see it, mails it to those who said Zusage, and comes back
 * above the cancellation when it is restored.
 */
describe('cancelled events in calendars', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  /** Said Zusage but lost the role: may no longer see the event, gets nothing. */
  let formerVertreter: TestUser;
  /** A Vertreter who said Absage. */
  let declined: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    formerVertreter = await createUser(t, { roles: ['Aufsichtsrat'], firstname: 'Ehemals' });
    declined = await createUser(t, { roles: ['Vertreter'], firstname: 'Abgesagt' });
  });
  afterAll(() => t.close());

  async function createEvent(title: string, roles: RoleName[]): Promise<PortalEvent> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: users.admin.headers,
      payload: {
        title,
        roles,
        start: '2027-02-10T18:00',
        end: '2027-02-10T20:00',
        location: 'Sitzungssaal',
        description: 'Tagesordnung folgt.',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event as PortalEvent;
  }
  const answer = (eventId: number, user: TestUser, status: AttendanceStatus) =>
    t.db.kysely
      .insertInto('event_attendance')
      .values({
        event_id: eventId,
        user_id: user.id,
        status,
        comment: '',
        answered_at: t.clock.now().toISOString(),
      })
      .execute();
  const ics = (id: number, user: TestUser) =>
    t.app.inject({ method: 'GET', url: `/api/v1/events/${id}/ics`, headers: user.headers });
  const remove = async (id: number) => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/events/${id}`,
      headers: users.admin.headers,
    });
    expect(res.statusCode, res.body).toBe(204);
  };

  it('answers a deleted event with its cancellation to those who could see it, 404 to the others', async () => {
    const event = await createEvent('Vertreterversammlung', ['Vertreter']);
    const live = readCalendar((await ics(event.id, users.vertreter)).body);
    const published = child(live, 'VEVENT');
    expect(value(live, 'METHOD')).toBe('PUBLISH');
    t.clock.advance(60_000);
    await remove(event.id);

    for (const user of [users.vertreter, users.admin, users.superAdmin]) {
      const res = await ics(event.id, user);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(res.headers['cache-control']).toBe('private, no-store');
      const calendar = readCalendar(res.body);
      expect(value(calendar, 'METHOD')).toBe('CANCEL');
      const vevent = child(calendar, 'VEVENT');
      expect(value(vevent, 'UID')).toBe(value(published, 'UID'));
      expect(value(vevent, 'SEQUENCE')).toBe(String(Number(value(published, 'SEQUENCE')) + 1));
      expect(value(vevent, 'STATUS')).toBe('CANCELLED');
      expect(value(vevent, 'SUMMARY')).toBe('Vertreterversammlung');
      expect(instantOf(calendar, prop(vevent, 'DTSTART')!)).toBe(event.start);
      expect(value(vevent, 'ORGANIZER')).toBe('mailto:no-reply@example.org');
    }
    // Could not see it: exactly the answer for an id that never existed.
    const missing = await ics(2_000_000, users.aufsichtsrat);
    expect(missing.statusCode).toBe(404);
    const hidden = await ics(event.id, users.aufsichtsrat);
    expect({ status: hidden.statusCode, body: hidden.body }).toEqual({
      status: missing.statusCode,
      body: missing.body,
    });
    expect(hidden.body).not.toContain('Vertreterversammlung');
    // The event itself stays gone for everybody.
    const get = await t.app.inject({
      method: 'GET',
      url: `/api/v1/events/${event.id}`,
      headers: users.vertreter.headers,
    });
    expect(get.statusCode).toBe(404);
  });

  it('mails "abgesagt" with a METHOD:CANCEL part to everyone who said Zusage and can see the event', async () => {
    const event = await createEvent('Aufsichtsratsklausur "Strategie"', ['Vertreter']);
    await answer(event.id, users.vertreter, 'zugesagt');
    await answer(event.id, users.admin, 'zugesagt');
    await answer(event.id, declined, 'abgesagt');
    await answer(event.id, formerVertreter, 'zugesagt');
    const sentBefore = (await t.flushMail()).length;
    await remove(event.id);
    const mails = (await t.flushMail()).slice(sentBefore);

    expect(mails.map((mail) => mail.to).sort()).toEqual([users.admin.email, users.vertreter.email].sort());
    const toVertreter = mails.find((mail) => mail.to === users.vertreter.email)!;
    expect(toVertreter.subject).toBe('Abgesagt: Aufsichtsratsklausur "Strategie"');
    expect(toVertreter.text).toContain('abgesagt');
    expect(toVertreter.text).toContain('Mittwoch, 10.02.2027, 18:00 Uhr');
    expect(toVertreter.calendar?.method).toBe('CANCEL');
    const calendar = readCalendar(toVertreter.calendar!.content);
    expect(value(calendar, 'METHOD')).toBe('CANCEL');
    const vevent = child(calendar, 'VEVENT');
    expect(value(vevent, 'STATUS')).toBe('CANCELLED');
    expect(value(vevent, 'SEQUENCE')).toBe('1');
    expect(value(vevent, 'ATTENDEE')).toBe(`mailto:${users.vertreter.email}`);
    const row = await t.db.kysely
      .selectFrom('trash_items')
      .select('snapshot')
      .where('kind', '=', 'event')
      .where('object_id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(value(vevent, 'UID')).toBe(JSON.parse(row.snapshot).events[0].uid);

    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'event.deleted')
      .where('object_id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toMatchObject({ cancellations_sent: 2 });

    // As it leaves the portal: a MIME mail whose text/calendar part a mail reader takes as a cancellation.
    const dir = await mkdtemp(join(tmpdir(), 'gremienportal-cancel-'));
    try {
      const transport = fileTransport(dir, t.app.log);
      await transport.send(toVertreter as MailMessage);
      transport.close();
      const [name] = await readdir(dir);
      const raw = await readFile(join(dir, name!), 'utf8');
      expect(raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=CANCEL/i);
      const parsed = await simpleParser(raw);
      expect(parsed.text).toContain('wurde abgesagt');
      // The alternative part mail readers act on, and the same entry as an attachment (base64,
      // byte for byte; the .eml file itself is written with Unix line ends).
      const inline = parsed.attachments.find((a) => a.contentType === 'text/calendar');
      expect(inline, 'text/calendar part').toBeDefined();
      expect(inline!.content.toString('utf8').replace(/\r?\n/g, '\r\n')).toBe(toVertreter.calendar!.content);
      const attached = parsed.attachments.find((a) => a.filename === 'termin.ics');
      expect(attached, 'termin.ics').toBeDefined();
      const fromMime = readCalendar(attached!.content.toString('utf8'));
      expect(value(fromMime, 'METHOD')).toBe('CANCEL');
      expect(value(child(fromMime, 'VEVENT'), 'UID')).toBe(value(vevent, 'UID'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sends no mail when nobody said Zusage', async () => {
    const event = await createEvent('Infoabend', ['Vertreter']);
    await answer(event.id, users.vertreter, 'vielleicht');
    const sentBefore = (await t.flushMail()).length;
    await remove(event.id);
    expect((await t.flushMail()).slice(sentBefore)).toEqual([]);
  });

  it('raises SEQUENCE by two on restore, above the cancellation, and cancels again one higher', async () => {
    const event = await createEvent('Beiratssitzung', ['Vertreter']);
    await remove(event.id);
    const cancelled = child(readCalendar((await ics(event.id, users.vertreter)).body), 'VEVENT');
    expect(value(cancelled, 'SEQUENCE')).toBe('1');

    const restored = await t.app.inject({
      method: 'POST',
      url: `/api/v1/trash/event/${event.id}/restore`,
      headers: users.admin.headers,
      payload: {},
    });
    expect(restored.statusCode, restored.body).toBe(200);
    const back = readCalendar((await ics(event.id, users.vertreter)).body);
    expect(value(back, 'METHOD')).toBe('PUBLISH');
    const vevent = child(back, 'VEVENT');
    expect(value(vevent, 'UID')).toBe(value(cancelled, 'UID'));
    expect(value(vevent, 'SEQUENCE')).toBe('2');
    expect(value(vevent, 'STATUS')).toBeUndefined();

    await remove(event.id);
    const again = child(readCalendar((await ics(event.id, users.vertreter)).body), 'VEVENT');
    expect(value(again, 'SEQUENCE')).toBe('3');
    expect(value(again, 'STATUS')).toBe('CANCELLED');
  });

  it('answers 404 for everyone once the event is purged', async () => {
    const event = await createEvent('Gelöschte Sitzung', ['Vertreter']);
    await remove(event.id);
    expect((await ics(event.id, users.vertreter)).statusCode).toBe(200);
    const purge = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/trash/event/${event.id}`,
      headers: users.superAdmin.headers,
    });
    expect(purge.statusCode, purge.body).toBe(204);
    for (const user of [users.vertreter, users.admin, users.superAdmin]) {
      expect((await ics(event.id, user)).statusCode).toBe(404);
    }
  });
});
