import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { MEETING_MESSAGES, MINUTES_MESSAGES, type Minutes } from '@gremienportal/contracts/meetings';
import { referencedObjects } from '../../../src/db/referenced-objects.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, roleIds, type TestUser } from '../../support/factories.ts';
import { dataUrl, multipart, pdfBytes, storedObjects } from '../../support/files.fixtures.ts';

type Headers = Record<string, string>;

const MAX_UPLOAD_MB = 1;

describe('the Protokoll der Sitzung', () => {
  let t: TestApp;
  let admin: TestUser;
  let superAdmin: TestUser;
  let attendee: TestUser;
  let declined: TestUser;
  let maybe: TestUser;
  let leaver: TestUser;
  let silent: TestUser;
  let aufsichtsrat: TestUser;
  let event: PortalEvent;

  const createEvent = async (title = 'Vertreterversammlung') => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: admin.headers,
      payload: {
        title,
        roles: ['Vertreter'],
        start: '2026-11-10T18:00',
        end: '2026-11-10T20:00',
        location: 'Saal 1',
        description: 'Ordentliche Versammlung.',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event as PortalEvent;
  };
  const publish = (id: number, payload: unknown, headers: Headers = admin.headers) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/events/${id}/minutes`,
      headers,
      payload: payload as string,
    });
  const publishOk = async (id: number, content: Buffer): Promise<Minutes> => {
    const res = await publish(id, { data: dataUrl(content) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(MEETING_MESSAGES.minutesSaved);
    return res.json().data as Minutes;
  };
  const download = (key: string, headers: Headers, extra: Headers = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url: `/api/v1/minutes/${key}`, headers: { ...headers, ...extra } });
  const answer = async (user: TestUser, id: number, status: string) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/events/${id}/attendance`,
      headers: user.headers,
      payload: { status },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const eventOf = async (id: number, headers: Headers = admin.headers): Promise<PortalEvent> =>
    (await t.app.inject({ method: 'GET', url: `/api/v1/events/${id}`, headers })).json().data;

  beforeAll(async () => {
    t = await buildTestApp({ env: { MAX_UPLOAD_MB: String(MAX_UPLOAD_MB) } });
    admin = await createUser(t, { roles: ['Admin'] });
    superAdmin = await createUser(t, { roles: ['Super-Admin'] });
    attendee = await createUser(t, { roles: ['Vertreter'], lastname: 'Zusager' });
    declined = await createUser(t, { roles: ['Vertreter'], lastname: 'Absager' });
    maybe = await createUser(t, { roles: ['Vertreter'], lastname: 'Vielleicht' });
    leaver = await createUser(t, { roles: ['Vertreter'], lastname: 'Weggang' });
    silent = await createUser(t, { roles: ['Vertreter'], lastname: 'Still' });
    aufsichtsrat = await createUser(t, { roles: ['Aufsichtsrat'] });
    event = await createEvent();
    await answer(attendee, event.id, 'zugesagt');
    await answer(declined, event.id, 'abgesagt');
    await answer(maybe, event.id, 'vielleicht');
    await answer(leaver, event.id, 'zugesagt');
    await answer(admin, event.id, 'zugesagt');
    // Said Zusage, then lost the Vertreter role: can no longer see the event.
    const [vertreter] = await roleIds(t, ['Vertreter']);
    const [ar] = await roleIds(t, ['Aufsichtsrat']);
    await t.db.kysely
      .updateTable('user_roles')
      .set({ role_id: ar! })
      .where('user_id', '=', leaver.id)
      .where('role_id', '=', vertreter!)
      .execute();
  });
  afterAll(() => t.close());

  describe('publishing', () => {
    let first: Minutes;
    const content = pdfBytes('Protokoll der Vertreterversammlung');

    it('stores the Protokoll with a download key and shows it on the event', async () => {
      await t.flushMail();
      t.mail.sent.length = 0;
      first = await publishOk(event.id, content);
      expect(first).toEqual({
        external: expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
        format: 'pdf',
        size_bytes: content.length,
        published_at: t.clock.now().toISOString(),
      });
      expect((await eventOf(event.id, attendee.headers)).minutes).toEqual(first);
      const res = await download(first.external, attendee.headers);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(content)).toBe(true);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain('Protokoll Vertreterversammlung.pdf');
      expect(res.headers['content-security-policy']).toMatch(/^sandbox/);
    });

    it('mails those who said Zusage and still see the event, with a link and no file', async () => {
      const sent = await t.flushMail();
      expect(sent.map((mail) => mail.to).sort()).toEqual([admin.email, attendee.email].sort());
      // Not to Absage, Vielleicht, no answer, nor the Zusage of one who lost the event's role.
      for (const other of [declined, maybe, silent, leaver]) {
        expect(sent.map((mail) => mail.to)).not.toContain(other.email);
      }
      const mail = sent.find((m) => m.to === attendee.email)!;
      expect(mail.subject).toBe('Protokoll veröffentlicht: Vertreterversammlung');
      expect(mail.text).toContain(`http://portal.test/events/show/${event.id}`);
      expect(mail.text).not.toContain(first.external);
      expect(mail.text).not.toContain('Protokoll der Vertreterversammlung');
      expect(mail.calendar).toBeUndefined();
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'event.minutes_published')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.details!)).toEqual({
        format: 'pdf',
        size: content.length,
        replaced: false,
        recipients: 'zugesagt',
        notified_users: 2,
      });
    });

    it('serves HEAD and ranges, and records each delivery once', async () => {
      const head = await download(first.external, attendee.headers, {}, 'HEAD');
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      const part = await download(first.external, attendee.headers, { range: 'bytes=0-3' });
      expect(part.statusCode).toBe(206);
      expect(part.body).toBe('%PDF');
      const entries = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'event.minutes_downloaded')
        .execute();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor_id: attendee.id, object_id: event.id, object_type: 'event' });
    });

    it('answers 404 alike to one who cannot see the event and for an unknown key', async () => {
      const unknown = await download('AAAAAAAAAAAAAAAAAAAAAA', aufsichtsrat.headers);
      expect(unknown.statusCode).toBe(404);
      for (const user of [aufsichtsrat, leaver]) {
        const res = await download(first.external, user.headers);
        expect({ status: res.statusCode, body: res.body }).toEqual({ status: 404, body: unknown.body });
      }
      expect((await download(first.external, {})).statusCode).toBe(401);
    });

    it('replaces it by multipart with a new key, deletes the old object after the commit and mails nobody', async () => {
      t.mail.sent.length = 0;
      const before = await storedObjects(t);
      const replacement = pdfBytes('Berichtigtes Protokoll');
      const form = multipart([], {
        filename: 'protokoll.pdf',
        type: 'application/pdf',
        content: replacement,
      });
      const res = await publish(event.id, form.payload, { ...admin.headers, ...form.headers });
      expect(res.statusCode, res.body).toBe(200);
      const second = res.json().data as Minutes;
      expect(second.external).not.toBe(first.external);
      expect((await download(first.external, attendee.headers)).statusCode).toBe(404);
      const fresh = await download(second.external, attendee.headers);
      expect(fresh.rawPayload.equals(replacement)).toBe(true);
      const after = await storedObjects(t);
      expect(after.objects).toHaveLength(before.objects.length);
      expect(after.temp).toEqual([]);
      expect(await t.flushMail()).toHaveLength(0);
      first = second;
    });

    it('refuses a request without file, with other fields or too large, leaving nothing behind', async () => {
      const before = await storedObjects(t);
      const row = await t.db.kysely.selectFrom('events').selectAll().where('id', '=', event.id).execute();
      const cases: [unknown, number, string][] = [
        [{}, 422, MEETING_MESSAGES.minutesRequired],
        [{ data: '' }, 422, MEETING_MESSAGES.minutesRequired],
        [{ data: dataUrl(pdfBytes('x')), title: 'fremd' }, 422, 'Unbekannter Schlüssel'],
        [{ data: 'https://example.org/protokoll.pdf' }, 422, 'Data-URL'],
        [{ data: dataUrl(Buffer.alloc(MAX_UPLOAD_MB * 1024 * 1024 + 1, 0x41)) }, 413, ''],
      ];
      for (const [payload, status, message] of cases) {
        const res = await publish(event.id, payload);
        expect(res.statusCode, `${JSON.stringify(payload).slice(0, 80)}: ${res.body}`).toBe(status);
        expect(typeof res.json().message).toBe('string');
        expect(res.body).toContain(message);
      }
      expect(await storedObjects(t)).toEqual(before);
      expect(await t.db.kysely.selectFrom('events').selectAll().where('id', '=', event.id).execute()).toEqual(
        row,
      );
    });

    it('is for admins only; a missing event is a 404 and its upload is discarded', async () => {
      const before = await storedObjects(t);
      const member = await publish(event.id, { data: dataUrl(pdfBytes('x')) }, attendee.headers);
      expect(member.statusCode).toBe(403);
      const missing = await publish(2_147_483_000, { data: dataUrl(pdfBytes('x')) });
      expect(missing.statusCode).toBe(404);
      const remove = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/events/${event.id}/minutes`,
        headers: attendee.headers,
      });
      expect(remove.statusCode).toBe(403);
      expect(await storedObjects(t)).toEqual(before);
    });
  });

  describe('removing', () => {
    it('takes the Protokoll off the event and deletes its object; a second remove is a 404', async () => {
      const other = await createEvent('Informationsabend');
      const minutes = await publishOk(other.id, pdfBytes('Kurzprotokoll'));
      const before = await storedObjects(t);
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/events/${other.id}/minutes`,
        headers: admin.headers,
      });
      expect(res.statusCode, res.body).toBe(204);
      expect((await eventOf(other.id)).minutes).toBeNull();
      expect((await download(minutes.external, admin.headers)).statusCode).toBe(404);
      expect((await storedObjects(t)).objects).toHaveLength(before.objects.length - 1);
      const again = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/events/${other.id}/minutes`,
        headers: admin.headers,
      });
      expect(again.statusCode).toBe(404);
      expect(again.json().message).toBe(MINUTES_MESSAGES.none);
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'event.minutes_removed')
        .where('object_id', '=', other.id)
        .execute();
      expect(audit).toHaveLength(1);
    });
  });

  describe('in the Papierkorb', () => {
    it('keeps the Protokoll while the event is there, brings it back on restore and deletes it on purge', async () => {
      const doomed = await createEvent('Sondersitzung');
      const minutes = await publishOk(doomed.id, pdfBytes('Protokoll der Sondersitzung'));
      const { minutes_storage_key: key } = await t.db.kysely
        .selectFrom('events')
        .select('minutes_storage_key')
        .where('id', '=', doomed.id)
        .executeTakeFirstOrThrow();
      const su = (method: 'DELETE' | 'POST', url: string) =>
        t.app.inject({ method, url, headers: superAdmin.headers });

      expect((await su('DELETE', `/api/v1/events/${doomed.id}`)).statusCode).toBe(204);
      expect((await download(minutes.external, admin.headers)).statusCode).toBe(404);
      expect((await storedObjects(t)).objects).toContain(key!);
      // What the start-up sweep keeps.
      expect(await referencedObjects(t.db.kysely)).toContain(key!);

      const restored = await su('POST', `/api/v1/trash/event/${doomed.id}/restore`);
      expect(restored.statusCode, restored.body).toBe(200);
      expect((await eventOf(doomed.id)).minutes).toEqual(minutes);
      expect((await download(minutes.external, admin.headers)).statusCode).toBe(200);

      expect((await su('DELETE', `/api/v1/events/${doomed.id}`)).statusCode).toBe(204);
      expect((await su('DELETE', `/api/v1/trash/event/${doomed.id}`)).statusCode).toBe(204);
      expect((await storedObjects(t)).objects).not.toContain(key!);
    });
  });
});
