// Over 300 lines: answers, the admins' list, its CSV and the reminder share one app, one event and the same
// members; the reminder's throttling and recipients depend on the answers given before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '@gremienportal/contracts/events';
import {
  ATTENDANCE_CSV_HEADER,
  MEETING_MESSAGES,
  type AttendanceList,
} from '@gremienportal/contracts/meetings';
import { MINUTE } from '../../../src/clock.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { formulaCells, parseCsv } from '../../support/csv.ts';
import { createUser, sessionFor, type TestUser } from '../../support/factories.ts';

type Headers = { authorization: string };

const eventBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Vertreterversammlung',
  roles: ['Vertreter'],
  start: '2026-12-15T18:00',
  end: '2026-12-15T20:00',
  location: 'Saal 1',
  description: 'Ordentliche Versammlung.',
  ...overrides,
});

describe('attendance (Zu- und Absagen)', () => {
  let t: TestApp;
  let admin: TestUser;
  let zander: TestUser;
  let albers: TestUser;
  let oehler: TestUser;
  let aufsichtsrat: TestUser;
  let noRoles: TestUser;
  let invited: TestUser;
  let event: PortalEvent;
  let otherEvent: PortalEvent;

  const createEvent = async (overrides: Record<string, unknown> = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: admin.headers,
      payload: eventBody(overrides),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event as PortalEvent;
  };
  const answer = (headers: Headers | Record<string, never>, id: number, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/events/${id}/attendance`,
      headers,
      payload: payload as object,
    });
  const attendanceList = async (id = event.id): Promise<AttendanceList> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/events/${id}/attendance`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as AttendanceList;
  };
  /** A new session: the test clock runs past the idle limit of the earlier ones. */
  const signedIn = async (user: TestUser): Promise<Headers> => ({
    authorization: `Bearer ${await sessionFor(t, user.id)}`,
  });
  const remind = (id = event.id, headers: Headers = admin.headers) =>
    t.app.inject({ method: 'POST', url: `/api/v1/events/${id}/attendance/reminder`, headers });

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'], lastname: 'Adler', firstname: 'Anna' });
    zander = await createUser(t, { roles: ['Vertreter'], lastname: 'Zander', firstname: 'Zora' });
    albers = await createUser(t, { roles: ['Vertreter'], lastname: 'Albers', firstname: 'Bernd' });
    oehler = await createUser(t, {
      roles: ['Vertreter', 'Aufsichtsrat'],
      lastname: 'Öhler',
      firstname: 'Olga',
    });
    aufsichtsrat = await createUser(t, { roles: ['Aufsichtsrat'], lastname: 'Berg' });
    noRoles = await createUser(t, { roles: [], lastname: 'Ohnerolle' });
    // Invited, not yet signed up: no password, so no active account.
    invited = await createUser(t, { roles: ['Vertreter'], lastname: 'Eingeladen' });
    await t.db.kysely
      .updateTable('users')
      .set({ password_hash: null })
      .where('id', '=', invited.id)
      .execute();
    event = await createEvent();
    otherEvent = await createEvent({ title: 'Informationsabend' });
  });
  afterAll(() => t.close());

  describe('answering', () => {
    it('lets only those who can see the event answer; others get the 404 of a missing event', async () => {
      const missing = await answer(zander.headers, 2_147_483_000, { status: 'zugesagt' });
      expect(missing.statusCode).toBe(404);
      for (const user of [aufsichtsrat, noRoles]) {
        const res = await answer(user.headers, event.id, { status: 'zugesagt' });
        expect({ status: res.statusCode, body: res.body }).toEqual({
          status: 404,
          body: missing.body,
        });
      }
      expect((await answer({}, event.id, { status: 'zugesagt' })).statusCode).toBe(401);
      const rows = await t.db.kysely.selectFrom('event_attendance').selectAll().execute();
      expect(rows).toEqual([]);
    });

    it('saves the member’s answer with comment and time, and an admin may answer too', async () => {
      const res = await answer(zander.headers, event.id, { status: 'zugesagt', comment: '  Komme gern  ' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        data: { status: 'zugesagt', comment: 'Komme gern', answered_at: t.clock.now().toISOString() },
      });
      const byAdmin = await answer(admin.headers, event.id, { status: 'vielleicht' });
      expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    });

    it('keeps one answer per member, which can be changed', async () => {
      t.clock.advance(5 * MINUTE);
      const res = await answer(albers.headers, event.id, { status: 'zugesagt' });
      expect(res.statusCode).toBe(200);
      t.clock.advance(MINUTE);
      const changed = await answer(albers.headers, event.id, { status: 'abgesagt', comment: 'Urlaub' });
      expect(changed.statusCode).toBe(200);
      const rows = await t.db.kysely
        .selectFrom('event_attendance')
        .selectAll()
        .where('event_id', '=', event.id)
        .where('user_id', '=', albers.id)
        .execute();
      expect(rows).toEqual([
        {
          event_id: event.id,
          user_id: albers.id,
          status: 'abgesagt',
          comment: 'Urlaub',
          answered_at: t.clock.now().toISOString(),
        },
      ]);
    });

    it('shows each member their own answer on the event and in the list, one event at a time', async () => {
      const own = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${event.id}`,
        headers: albers.headers,
      });
      expect(own.json().data.my_attendance).toMatchObject({ status: 'abgesagt', comment: 'Urlaub' });
      const list = await t.app.inject({ method: 'GET', url: '/api/v1/events', headers: zander.headers });
      const events = list.json().data as PortalEvent[];
      expect(events.find((e) => e.id === event.id)?.my_attendance).toMatchObject({ status: 'zugesagt' });
      expect(events.find((e) => e.id === otherEvent.id)?.my_attendance).toBeNull();
      // Someone else's answer is never the caller's.
      const other = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${event.id}`,
        headers: oehler.headers,
      });
      expect(other.json().data.my_attendance).toBeNull();
    });

    it('records the answer in the audit log without the comment', async () => {
      const entries = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'event.attendance_answered')
        .where('actor_id', '=', albers.id)
        .orderBy('id')
        .execute();
      expect(entries.map((entry) => JSON.parse(entry.details!))).toEqual([
        { status: 'zugesagt' },
        { status: 'abgesagt' },
      ]);
      expect(entries.every((entry) => entry.object_id === event.id)).toBe(true);
      expect(entries.some((entry) => entry.details!.includes('Urlaub'))).toBe(false);
    });

    it('refuses a missing or unknown answer, a long comment and unknown fields in German, changing nothing', async () => {
      const before = await t.db.kysely.selectFrom('event_attendance').selectAll().execute();
      const cases: [unknown, number, string][] = [
        [{}, 422, MEETING_MESSAGES.statusRequired],
        [{ status: 'ja' }, 422, MEETING_MESSAGES.statusRequired],
        [{ status: 'zugesagt', comment: 'x'.repeat(501) }, 422, 'Kommentar'],
        // Named, not a bare 400 (decision 147).
        [{ status: 'zugesagt', user_id: 5 }, 422, '"user_id":["Dieses Feld ist unbekannt."]'],
      ];
      for (const [payload, status, message] of cases) {
        const res = await answer(oehler.headers, event.id, payload);
        expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(status);
        expect(res.json().message).toEqual(expect.any(String));
        expect(res.body).toContain(message);
      }
      expect(await t.db.kysely.selectFrom('event_attendance').selectAll().execute()).toEqual(before);
    });
  });

  describe('the admins’ list', () => {
    it('lists the active holders of the event’s roles and everyone who answered, by last name, with counts', async () => {
      const list = await attendanceList();
      expect(list.entries.map((entry) => entry.user.lastname)).toEqual([
        'Adler',
        'Albers',
        'Öhler',
        'Zander',
      ]);
      const byName = Object.fromEntries(list.entries.map((entry) => [entry.user.lastname, entry]));
      expect(byName.Albers).toMatchObject({
        status: 'abgesagt',
        comment: 'Urlaub',
        user: { id: albers.id, firstname: 'Bernd', roles: ['Vertreter'] },
      });
      expect(byName.Öhler).toMatchObject({ status: null, comment: '', answered_at: null });
      expect(byName.Öhler!.user.roles.sort()).toEqual(['Aufsichtsrat', 'Vertreter']);
      expect(byName.Adler).toMatchObject({ status: 'vielleicht', user: { roles: ['Admin'] } });
      expect(list.counts).toEqual({ zugesagt: 1, abgesagt: 1, vielleicht: 1, offen: 1 });
      expect(list.reminder_sent_at).toBeNull();
      expect(list.reminder_available_at).toBeNull();
    });

    it('keeps an answer of one who lost the event’s role since', async () => {
      const leaver = await createUser(t, { roles: ['Vertreter'], lastname: 'Weggang' });
      expect((await answer(leaver.headers, otherEvent.id, { status: 'zugesagt' })).statusCode).toBe(200);
      await t.db.kysely.deleteFrom('user_roles').where('user_id', '=', leaver.id).execute();
      const list = await attendanceList(otherEvent.id);
      expect(list.entries.find((entry) => entry.user.id === leaver.id)).toMatchObject({
        status: 'zugesagt',
        user: { roles: [] },
      });
    });

    it('is for admins only: members get 403, a missing event 404', async () => {
      for (const url of [
        `/api/v1/events/${event.id}/attendance`,
        `/api/v1/events/${event.id}/attendance.csv`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers: zander.headers });
        expect(res.statusCode, url).toBe(403);
      }
      const missing = await t.app.inject({
        method: 'GET',
        url: '/api/v1/events/2147483000/attendance',
        headers: admin.headers,
      });
      expect(missing.statusCode).toBe(404);
      expect((await remind(event.id, zander.headers)).statusCode).toBe(403);
    });
  });

  describe('the CSV export', () => {
    it('has German headers, a BOM, one row per person and is an attachment', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${event.id}/attendance.csv`,
        headers: admin.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="Teilnahme Vertreterversammlung\.csv"/,
      );
      expect(res.body.startsWith('\uFEFF')).toBe(true);
      const rows = parseCsv(res.body.slice(1), ';');
      expect(rows[0]).toEqual([...ATTENDANCE_CSV_HEADER]);
      expect(rows.slice(1).map((row) => row.slice(0, 5))).toEqual([
        ['Adler', 'Anna', admin.email, 'Admin', 'Vielleicht'],
        ['Albers', 'Bernd', albers.email, 'Vertreter', 'Absage'],
        ['Öhler', 'Olga', oehler.email, expect.stringContaining('Vertreter'), 'Offen'],
        ['Zander', 'Zora', zander.email, 'Vertreter', 'Zusage'],
      ]);
      const albersRow = rows.find((row) => row[0] === 'Albers')!;
      expect(albersRow[5]).toBe('Urlaub');
      expect(albersRow[6]).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
      expect(rows.find((row) => row[0] === 'Öhler')![6]).toBe('');
    });

    it('neutralises formulas in names and comments, whichever separator the spreadsheet uses', async () => {
      const sneaky = await createUser(t, {
        roles: ['Vertreter'],
        lastname: '=HYPERLINK("http://example.org","Klick")',
        firstname: '@SUMME(A1)',
      });
      // Read with tab or space as separator, `Gast =1+2` and `x\t@SUMME(B1)` split into formulas.
      const comment = '+49 30 1234;=1+2\n-Abzug, =A1 Gast =1+2 x\t@SUMME(B1)';
      expect((await answer(sneaky.headers, event.id, { status: 'zugesagt', comment })).statusCode).toBe(200);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${event.id}/attendance.csv`,
        headers: admin.headers,
      });
      for (const separator of [';', ',', '\t', ' '] as const) {
        const rows = parseCsv(res.body.slice(1), separator);
        expect(formulaCells(rows), `Trennzeichen ${JSON.stringify(separator)}`).toEqual([]);
      }
      const row = parseCsv(res.body.slice(1), ';').find((cells) => cells[0]!.includes('HYPERLINK'))!;
      expect(row[0]).toBe(`'=HYPERLINK("http://example.org","Klick")`);
      expect(row[1]).toBe(`'@SUMME(A1)`);
      expect(row[5]).toContain('1234');
    });
  });

  describe('the reminder', () => {
    it('mails only the active holders of the event’s roles without an answer, with answer links', async () => {
      await t.flushMail();
      t.mail.sent.length = 0;
      const res = await remind();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: 'Erinnerung an 1 Person gesendet', sent: 1 });
      const sent = await t.flushMail();
      expect(sent.map((mail) => mail.to)).toEqual([oehler.email]);
      const [mail] = sent;
      expect(mail!.subject).toContain('Vertreterversammlung');
      expect(mail!.text).toMatch(/^Sehr geehrte Frau Öhler,/);
      for (const status of ['zugesagt', 'abgesagt', 'vielleicht']) {
        expect(mail!.text).toContain(`http://portal.test/events/show/${event.id}?antwort=${status}`);
      }
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'event.attendance_reminded')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.details!)).toEqual({ recipients: 1 });
      expect(audit.actor_id).toBe(admin.id);
    });

    it('goes out at most once an hour per event: 409 with the Berlin time of the next one', async () => {
      const sentAt = t.clock.now();
      const list = await attendanceList();
      expect(list.reminder_sent_at).toBe(sentAt.toISOString());
      expect(list.reminder_available_at).toBe(new Date(sentAt.getTime() + 60 * MINUTE).toISOString());
      // The test clock stands at 10:06 UTC, 11:06 in Berlin (winter time).
      expect(sentAt.toISOString()).toBe('2026-11-21T10:06:00.000Z');
      t.clock.advance(59 * MINUTE);
      const early = await remind();
      expect(early.statusCode).toBe(409);
      expect(early.json().message).toBe(MEETING_MESSAGES.reminderTooSoon('12:06'));
      const outbox = await t.db.kysely.selectFrom('outbox').select('id').execute();
      t.clock.advance(MINUTE);
      const again = await remind();
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().sent).toBe(1);
      expect((await t.db.kysely.selectFrom('outbox').select('id').execute()).length).toBe(outbox.length + 1);
      // Another event has its own hour.
      expect((await remind(otherEvent.id)).statusCode).toBe(200);
    });

    it('rounds the time of the next reminder up to the full minute', async () => {
      t.clock.advance(30 * MINUTE);
      expect((await attendanceList()).reminder_available_at).not.toBeNull();
      t.clock.advance(30 * MINUTE + 30_000);
      expect((await remind()).statusCode).toBe(200);
      const early = await remind();
      expect(early.statusCode).toBe(409);
      // Sent 13:06:30 Berlin: possible from 14:06:30, said as "14:07".
      expect(early.json().message).toBe(MEETING_MESSAGES.reminderTooSoon('14:07'));
    });

    it('says so when everyone has answered, without spending the hour', async () => {
      const small = await createEvent({ title: 'Kleiner Kreis', roles: ['Aufsichtsrat'] });
      for (const user of [aufsichtsrat, oehler]) {
        expect((await answer(await signedIn(user), small.id, { status: 'abgesagt' })).statusCode).toBe(200);
      }
      const res = await remind(small.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: MEETING_MESSAGES.reminderNobody, sent: 0 });
      expect((await attendanceList(small.id)).reminder_sent_at).toBeNull();
      const audits = await t.db.kysely
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'event.attendance_reminded')
        .where('object_id', '=', small.id)
        .execute();
      expect(audits).toEqual([]);
    });
  });

  it('puts the answer links into the notification mail of a new event', async () => {
    await t.flushMail();
    t.mail.sent.length = 0;
    const announced = await createEvent({ title: 'Sommerfest', notifications: ['Vertreter'] });
    const mail = (await t.flushMail()).find((m) => m.to === zander.email)!;
    expect(mail.subject).toBe('Neues Event im Gremienportal: Sommerfest');
    expect(mail.text).toContain(`http://portal.test/events/show/${announced.id}\n`);
    for (const status of ['zugesagt', 'abgesagt', 'vielleicht']) {
      expect(mail.text).toContain(`http://portal.test/events/show/${announced.id}?antwort=${status}`);
    }
  });
});
