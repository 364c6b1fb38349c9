// Over 300 lines: the events API (roles, shape, visibility, validation, notifications, information file,
// audit) runs on one test app and shares the multipart, data-URL and storage and outbox counting helpers.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, roleIds, type TestUser } from '../../support/factories.ts';

type Headers = { authorization: string };

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const dataUrl = (content: Buffer, mime = 'application/pdf') =>
  `data:${mime};base64,${content.toString('base64')}`;

/** A multipart body as a browser sends it: text fields (lists repeated) and at most one file. */
function multipart(
  fields: [string, string][],
  file?: { field?: string; filename: string; type: string; content: Buffer },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----gremienportal${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.type}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const validBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Vertreterversammlung',
  roles: ['Vertreter'],
  start: '2026-07-15T18:00',
  end: '2026-07-15T20:00',
  location: 'Saal 1, Hauptstraße 5',
  description: 'Ordentliche Versammlung mit Tagesordnung.',
  ...overrides,
});

async function storedObjects(t: TestApp): Promise<string[]> {
  const entries = await readdir(join(t.dataDir, 'files'), { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

async function tempObjects(t: TestApp): Promise<string[]> {
  return readdir(join(t.dataDir, 'files', '.tmp')).catch(() => [] as string[]);
}

async function outboxCount(t: TestApp): Promise<number> {
  return (await t.db.kysely.selectFrom('outbox').select('id').execute()).length;
}

async function eventCount(t: TestApp): Promise<number> {
  return (await t.db.kysely.selectFrom('events').select('id').execute()).length;
}

describe('events API', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let both: TestUser;
  let adminVertreter: TestUser;
  let noRoles: TestUser;

  async function create(headers: Headers, body: Record<string, unknown> = validBody()) {
    return t.app.inject({ method: 'POST', url: '/api/v1/events', headers, payload: body });
  }
  async function createOk(body: Record<string, unknown> = validBody()): Promise<PortalEvent> {
    const res = await create(users.admin.headers, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event as PortalEvent;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    both = await createUser(t, { roles: ['Aufsichtsrat', 'Vertreter'] });
    adminVertreter = await createUser(t, { roles: ['Admin', 'Vertreter'] });
    noRoles = await createUser(t, { roles: [] });
  });
  afterAll(() => t.close());

  describe('access per role', () => {
    let event: PortalEvent;
    beforeAll(async () => {
      event = await createOk(validBody({ roles: ['Vertreter', 'Aufsichtsrat'], data: dataUrl(PDF) }));
    });

    it('answers 401 to anonymous callers on every route', async () => {
      const calls: [string, string][] = [
        ['GET', '/api/v1/events'],
        ['POST', '/api/v1/events'],
        ['GET', `/api/v1/events/${event.id}`],
        ['PUT', `/api/v1/events/${event.id}`],
        ['DELETE', `/api/v1/events/${event.id}`],
        ['GET', `/api/v1/events/${event.id}/ics`],
        ['GET', `/api/v1/info/${event.external}`],
        ['HEAD', `/api/v1/info/${event.external}`],
      ];
      for (const [method, url] of calls) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          ...(method === 'POST' || method === 'PUT' ? { payload: validBody() } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        if (method !== 'HEAD') expect(res.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
      }
    });

    it('lets Vertreter and Aufsichtsrat read but not write (403)', async () => {
      for (const user of [users.vertreter, users.aufsichtsrat]) {
        const list = await t.app.inject({ method: 'GET', url: '/api/v1/events', headers: user.headers });
        expect(list.statusCode).toBe(200);
        expect(list.json().data.map((e: PortalEvent) => e.id)).toContain(event.id);
        const one = await t.app.inject({
          method: 'GET',
          url: `/api/v1/events/${event.id}`,
          headers: user.headers,
        });
        expect(one.statusCode).toBe(200);
        expect((await create(user.headers)).statusCode).toBe(403);
        const put = await t.app.inject({
          method: 'PUT',
          url: `/api/v1/events/${event.id}`,
          headers: user.headers,
          payload: validBody(),
        });
        expect(put.statusCode).toBe(403);
        expect(put.json()).toEqual({ message: 'Dafür fehlt Ihnen die Berechtigung.' });
        const del = await t.app.inject({
          method: 'DELETE',
          url: `/api/v1/events/${event.id}`,
          headers: user.headers,
        });
        expect(del.statusCode).toBe(403);
        const ics = await t.app.inject({
          method: 'GET',
          url: `/api/v1/events/${event.id}/ics`,
          headers: user.headers,
        });
        expect(ics.statusCode).toBe(200);
        const file = await t.app.inject({
          method: 'GET',
          url: `/api/v1/info/${event.external}`,
          headers: user.headers,
        });
        expect(file.statusCode).toBe(200);
      }
      const stillThere = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
      });
      expect(stillThere.json().data.title).toBe(event.title);
    });

    it('lets Admin and Super-Admin create, read, update and delete', async () => {
      for (const user of [users.admin, users.superAdmin]) {
        const created = await create(user.headers, validBody({ title: 'Klausurtagung' }));
        expect(created.statusCode).toBe(201);
        const id = created.json().event.id as number;
        const read = await t.app.inject({
          method: 'GET',
          url: `/api/v1/events/${id}`,
          headers: user.headers,
        });
        expect(read.statusCode).toBe(200);
        const updated = await t.app.inject({
          method: 'PUT',
          url: `/api/v1/events/${id}`,
          headers: user.headers,
          payload: validBody({ title: 'Klausurtagung 2026' }),
        });
        expect(updated.statusCode).toBe(200);
        expect(updated.json().event.title).toBe('Klausurtagung 2026');
        const deleted = await t.app.inject({
          method: 'DELETE',
          url: `/api/v1/events/${id}`,
          headers: user.headers,
        });
        expect(deleted.statusCode).toBe(204);
        expect(deleted.body).toBe('');
        const gone = await t.app.inject({
          method: 'GET',
          url: `/api/v1/events/${id}`,
          headers: user.headers,
        });
        expect(gone.statusCode).toBe(404);
      }
    });
  });

  describe('shape of an event', () => {
    it('answers the fields of product.md P10.6 with UTC times and Berlin input defaults', async () => {
      const event = await createOk(
        validBody({ roles: [(await roleIds(t, ['Vertreter']))[0], 'Aufsichtsrat'], data: dataUrl(PDF) }),
      );
      expect(event).toEqual({
        id: expect.any(Number),
        title: 'Vertreterversammlung',
        start: '2026-07-15T16:00:00.000Z',
        end: '2026-07-15T18:00:00.000Z',
        location: 'Saal 1, Hauptstraße 5',
        description: 'Ordentliche Versammlung mit Tagesordnung.',
        external: expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
        file_format: 'pdf',
        roles: ['Aufsichtsrat', 'Vertreter'],
        roles_string: 'Aufsichtsrat, Vertreter',
        default_start: '2026-07-15T18:00',
        default_end: '2026-07-15T20:00',
        created_at: t.clock.now().toISOString(),
        updated_at: t.clock.now().toISOString(),
        // Decision 130: nobody has answered, no Protokoll, no agenda yet.
        my_attendance: null,
        minutes: null,
        agenda_count: 0,
        agenda_published_at: null,
      });
      const read = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${event.id}`,
        headers: users.vertreter.headers,
      });
      expect(read.json()).toEqual({ data: event });
    });

    it('reads local times as Europe/Berlin in winter and summer, and accepts ISO with offset', async () => {
      const winter = await createOk(validBody({ start: '2026-12-01 18:30:00', end: '2026-12-01T21:00' }));
      expect(winter.start).toBe('2026-12-01T17:30:00.000Z');
      expect(winter.end).toBe('2026-12-01T20:00:00.000Z');
      expect(winter.default_start).toBe('2026-12-01T18:30');
      const offset = await createOk(
        validBody({ start: '2026-07-15T18:00:00+02:00', end: '2026-07-15T17:00:00Z' }),
      );
      expect(offset.start).toBe('2026-07-15T16:00:00.000Z');
      expect(offset.end).toBe('2026-07-15T17:00:00.000Z');
      expect(offset.default_end).toBe('2026-07-15T19:00');
    });

    it('answers 404 for unknown and malformed ids', async () => {
      for (const url of ['/api/v1/events/999999', '/api/v1/events/abc', '/api/v1/events/-1']) {
        const res = await t.app.inject({ method: 'GET', url, headers: users.admin.headers });
        expect(res.statusCode, url).toBe(404);
      }
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await t.app.inject({
          method,
          url: '/api/v1/events/999999',
          headers: users.admin.headers,
          ...(method === 'PUT' ? { payload: validBody() } : {}),
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'Das Event wurde nicht gefunden.' });
      }
    });
  });

  describe('visibility (product.md P5)', () => {
    let secret: PortalEvent;
    let shared: PortalEvent;
    beforeAll(async () => {
      secret = await createOk(
        validBody({ title: 'Vertrauliche Sitzung', roles: ['Aufsichtsrat'], data: dataUrl(PDF) }),
      );
      shared = await createOk(validBody({ title: 'Offene Sitzung', roles: ['Vertreter'] }));
    });

    it('hides an event that shares no role: absent from the list, 404 like a nonexistent one', async () => {
      const list = await t.app.inject({
        method: 'GET',
        url: '/api/v1/events',
        headers: users.vertreter.headers,
      });
      const ids = list.json().data.map((e: PortalEvent) => e.id);
      expect(ids).not.toContain(secret.id);
      expect(ids).toContain(shared.id);

      const hidden = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${secret.id}`,
        headers: users.vertreter.headers,
      });
      const missing = await t.app.inject({
        method: 'GET',
        url: '/api/v1/events/999999',
        headers: users.vertreter.headers,
      });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.body).toBe(missing.body);

      const hiddenIcs = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${secret.id}/ics`,
        headers: users.vertreter.headers,
      });
      const missingIcs = await t.app.inject({
        method: 'GET',
        url: '/api/v1/events/999999/ics',
        headers: users.vertreter.headers,
      });
      expect(hiddenIcs.statusCode).toBe(404);
      expect(hiddenIcs.body).toBe(missingIcs.body);

      const hiddenFile = await t.app.inject({
        method: 'GET',
        url: `/api/v1/info/${secret.external}`,
        headers: users.vertreter.headers,
      });
      const missingFile = await t.app.inject({
        method: 'GET',
        url: '/api/v1/info/AAAAAAAAAAAAAAAAAAAAAA',
        headers: users.vertreter.headers,
      });
      expect(hiddenFile.statusCode).toBe(404);
      expect(hiddenFile.body).toBe(missingFile.body);
      expect(hiddenFile.headers['content-disposition']).toBeUndefined();
      const hiddenHead = await t.app.inject({
        method: 'HEAD',
        url: `/api/v1/info/${secret.external}`,
        headers: users.vertreter.headers,
      });
      expect(hiddenHead.statusCode).toBe(404);
    });

    it('shows it to holders of the role and to admins, not to users without roles', async () => {
      for (const user of [users.aufsichtsrat, both, users.admin, users.superAdmin]) {
        const list = await t.app.inject({ method: 'GET', url: '/api/v1/events', headers: user.headers });
        expect(list.json().data.map((e: PortalEvent) => e.id)).toContain(secret.id);
        const file = await t.app.inject({
          method: 'GET',
          url: `/api/v1/info/${secret.external}`,
          headers: user.headers,
        });
        expect(file.statusCode).toBe(200);
      }
      const list = await t.app.inject({ method: 'GET', url: '/api/v1/events', headers: noRoles.headers });
      expect(list.statusCode).toBe(200);
      expect(list.json().data).toEqual([]);
      const one = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${shared.id}`,
        headers: noRoles.headers,
      });
      expect(one.statusCode).toBe(404);
    });

    it('follows role changes from the next request on', async () => {
      const user = await createUser(t, { roles: ['Aufsichtsrat'] });
      const url = `/api/v1/events/${secret.id}`;
      expect((await t.app.inject({ method: 'GET', url, headers: user.headers })).statusCode).toBe(200);
      await t.db.kysely.deleteFrom('user_roles').where('user_id', '=', user.id).execute();
      expect((await t.app.inject({ method: 'GET', url, headers: user.headers })).statusCode).toBe(404);
    });
  });

  describe('validation (product.md P11)', () => {
    it('refuses an empty create with German messages per field and stores nothing', async () => {
      const before = await eventCount(t);
      const res = await create(users.admin.headers, {});
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'Die Eingaben sind ungültig.',
        errors: {
          title: ['Titel ist erforderlich.'],
          roles: ['Bitte mindestens eine Rolle wählen.'],
          start: ['Beginn ist erforderlich.'],
          end: ['Ende ist erforderlich.'],
          location: ['Ort ist erforderlich.'],
          description: ['Beschreibung ist erforderlich.'],
        },
      });
      expect(await eventCount(t)).toBe(before);
    });

    it('checks lengths, times and roles on create', async () => {
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ title: 'ab' }, { title: ['Titel muss mindestens 3 Zeichen lang sein.'] }],
        [{ title: 'x'.repeat(256) }, { title: ['Titel darf höchstens 255 Zeichen lang sein.'] }],
        [{ title: '   ' }, { title: ['Titel ist erforderlich.'] }],
        [{ title: '' }, { title: ['Titel ist erforderlich.'] }],
        [{ title: 12345 }, { title: [expect.any(String)] }],
        [{ roles: [] }, { roles: ['Bitte mindestens eine Rolle wählen.'] }],
        [{ roles: ['Vorstand'] }, { roles: ['Die Rolle „Vorstand“ gibt es nicht.'] }],
        [{ roles: [999] }, { roles: ['Die Rolle „999“ gibt es nicht.'] }],
        [{ start: '2026-02-30T10:00' }, { start: ['Beginn ist kein gültiger Zeitpunkt.'] }],
        [{ end: 'morgen' }, { end: ['Ende ist kein gültiger Zeitpunkt.'] }],
        [{ start: '' }, { start: ['Beginn ist erforderlich.'] }],
        [{ location: '' }, { location: ['Ort ist erforderlich.'] }],
        [{ description: ' ' }, { description: ['Beschreibung ist erforderlich.'] }],
        [
          { start: '2026-07-15T18:00', end: '2026-07-15T17:59' },
          { end: ['Das Ende darf nicht vor dem Beginn liegen.'] },
        ],
        [
          { data: 'keine-data-url' },
          { data: ['Die Datei muss als Data-URL (data:…;base64,…) übermittelt werden.'] },
        ],
      ];
      const before = await eventCount(t);
      for (const [override, errors] of cases) {
        const res = await create(users.admin.headers, validBody(override));
        expect(res.statusCode, JSON.stringify(override)).toBe(422);
        expect(res.json().errors, JSON.stringify(override)).toEqual(errors);
      }
      expect(await eventCount(t)).toBe(before);
    });

    it('accepts an event that ends when it starts', async () => {
      const event = await createOk(validBody({ start: '2026-07-15T18:00', end: '2026-07-15T18:00' }));
      expect(event.end).toBe(event.start);
    });

    it('applies the update rules: title 3, location 3, description 5, start and end required', async () => {
      const event = await createOk();
      const put = (payload: Record<string, unknown>) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/v1/events/${event.id}`,
          headers: users.admin.headers,
          payload,
        });
      const res = await put({ title: 'ab', location: 'ab', description: 'kurz' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({
        title: ['Titel muss mindestens 3 Zeichen lang sein.'],
        location: ['Ort muss mindestens 3 Zeichen lang sein.'],
        description: ['Beschreibung muss mindestens 5 Zeichen lang sein.'],
        start: ['Beginn ist erforderlich.'],
        end: ['Ende ist erforderlich.'],
      });
      const backwards = await put(validBody({ start: '2026-07-15T18:00', end: '2026-07-14T18:00' }));
      expect(backwards.json().errors).toEqual({ end: ['Das Ende darf nicht vor dem Beginn liegen.'] });
      const noRoles = await put(validBody({ roles: [] }));
      expect(noRoles.json().errors).toEqual({ roles: ['Bitte mindestens eine Rolle wählen.'] });
      const unchanged = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
      });
      expect(unchanged.json().data).toEqual(event);
    });

    it('keeps the roles when an update sends none and replaces them when it does', async () => {
      const event = await createOk(validBody({ roles: ['Vertreter', 'Aufsichtsrat'] }));
      const { roles: _roles, ...withoutRoles } = validBody({ title: 'Neuer Titel' });
      const kept = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
        payload: withoutRoles,
      });
      expect(kept.json().event.roles).toEqual(['Aufsichtsrat', 'Vertreter']);
      const replaced = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
        payload: validBody({ roles: ['Aufsichtsrat'] }),
      });
      expect(replaced.json().event.roles).toEqual(['Aufsichtsrat']);
      const hidden = await t.app.inject({
        method: 'GET',
        url: `/api/v1/events/${event.id}`,
        headers: users.vertreter.headers,
      });
      expect(hidden.statusCode).toBe(404);
    });

    it('answers broken bodies with 400, never 500', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: { ...users.admin.headers, 'content-type': 'application/json' },
        payload: '{"title": ',
      });
      expect(res.statusCode).toBe(400);
      const array = await t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: users.admin.headers,
        payload: [1, 2],
      });
      expect(array.statusCode).toBe(400);
    });
  });

  describe('notifications (product.md P7.3)', () => {
    beforeEach(async () => {
      await t.flushMail();
      t.mail.sent.length = 0;
    });

    it('sends one German mail to every holder of a chosen role, none to admins without it', async () => {
      const event = await createOk(
        validBody({
          title: 'Informationsabend',
          roles: ['Vertreter', 'Aufsichtsrat'],
          notifications: ['Vertreter', (await roleIds(t, ['Aufsichtsrat']))[0]],
          location: 'Rathaus, Saal 2',
        }),
      );
      const sent = await t.flushMail();
      const recipients = sent.map((mail) => mail.to).sort();
      const holders = await t.db.kysely
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .innerJoin('users', 'users.id', 'user_roles.user_id')
        .select('users.email')
        .where('roles.name', 'in', ['Vertreter', 'Aufsichtsrat'])
        .distinct()
        .execute();
      expect(recipients).toEqual(holders.map((row) => row.email).sort());
      expect(recipients).toContain(users.vertreter.email);
      expect(recipients).toContain(users.aufsichtsrat.email);
      expect(recipients).toContain(adminVertreter.email);
      expect(recipients.filter((to) => to === both.email)).toHaveLength(1);
      expect(recipients).not.toContain(users.admin.email);
      expect(recipients).not.toContain(users.superAdmin.email);
      expect(recipients).not.toContain(noRoles.email);
      expect(new Set(recipients).size).toBe(recipients.length);

      const mail = sent.find((m) => m.to === users.vertreter.email)!;
      expect(mail.subject).toBe('Neues Event im Gremienportal: Informationsabend');
      expect(mail.text).toContain('Informationsabend');
      expect(mail.text).toContain('Beginn: Mittwoch, 15.07.2026, 18:00 Uhr');
      expect(mail.text).toContain('Ende:   Mittwoch, 15.07.2026, 20:00 Uhr');
      expect(mail.text).toContain('Ort:    Rathaus, Saal 2');
      expect(mail.text).toContain(`http://portal.test/events/show/${event.id}`);
      expect(mail.text).toMatch(/^Sehr geehrte Frau Muster\d+,/);
    });

    it('reaches only the chosen roles, never someone who cannot see the event', async () => {
      await createOk(validBody({ roles: ['Vertreter'], notifications: ['Vertreter'] }));
      const recipients = (await t.flushMail()).map((mail) => mail.to);
      expect(recipients).toContain(users.vertreter.email);
      expect(recipients).toContain(both.email);
      expect(recipients).not.toContain(users.aufsichtsrat.email);
      expect(recipients).not.toContain(users.admin.email);
    });

    it('refuses notification roles outside the event roles (422) and queues nothing', async () => {
      const [events, mails] = [await eventCount(t), await outboxCount(t)];
      const res = await create(
        users.admin.headers,
        validBody({ roles: ['Vertreter'], notifications: ['Aufsichtsrat'] }),
      );
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({
        notifications: ['Benachrichtigungen können nur an Rollen des Events gehen.'],
      });
      const unknown = await create(users.admin.headers, validBody({ notifications: ['Gäste'] }));
      expect(unknown.json().errors).toEqual({ notifications: ['Die Rolle „Gäste“ gibt es nicht.'] });
      expect(await eventCount(t)).toBe(events);
      expect(await outboxCount(t)).toBe(mails);
    });

    it('sends nothing without a choice', async () => {
      const mails = await outboxCount(t);
      await createOk(validBody({ notifications: [] }));
      await createOk(validBody());
      expect(await outboxCount(t)).toBe(mails);
    });

    it('takes repeated multipart fields for roles and notifications', async () => {
      const body = multipart([
        ['title', 'Mitgliederforum'],
        ['roles', 'Vertreter'],
        ['roles', String((await roleIds(t, ['Aufsichtsrat']))[0])],
        ['start', '2026-12-03T17:00'],
        ['end', '2026-12-03T19:00'],
        ['location', 'Gemeindehaus'],
        ['description', 'Austausch mit den Mitgliedern.'],
        ['notifications', 'Aufsichtsrat'],
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: { ...users.admin.headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().event.roles).toEqual(['Aufsichtsrat', 'Vertreter']);
      expect(res.json().event.start).toBe('2026-12-03T16:00:00.000Z');
      const recipients = (await t.flushMail()).map((mail) => mail.to).sort();
      expect(recipients).toEqual([users.aufsichtsrat.email, both.email].sort());
    });
  });

  describe('information file', () => {
    it('stores a data-URL upload and serves it with safe download headers (GET, HEAD, Range)', async () => {
      const event = await createOk(validBody({ title: 'Jahresabschluss', data: dataUrl(PDF) }));
      expect(event.file_format).toBe('pdf');
      const url = `/api/v1/info/${event.external}`;
      const res = await t.app.inject({ method: 'GET', url, headers: users.vertreter.headers });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PDF)).toBe(true);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="Jahresabschluss.pdf"; filename*=UTF-8''Jahresabschluss.pdf`,
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain('sandbox');
      expect(res.headers['cache-control']).toBe('private, no-store');

      const head = await t.app.inject({ method: 'HEAD', url, headers: users.vertreter.headers });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(PDF.length));
      expect(head.body).toBe('');

      const range = await t.app.inject({
        method: 'GET',
        url,
        headers: { ...users.vertreter.headers, range: 'bytes=5-7' },
      });
      expect(range.statusCode).toBe(206);
      expect(range.headers['content-range']).toBe(`bytes 5-7/${PDF.length}`);
      expect(range.rawPayload.equals(PDF.subarray(5, 8))).toBe(true);

      // One audit entry for the plain GET; HEAD and the resumed range are no new downloads.
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'event.file_downloaded')
        .where('object_id', '=', event.id)
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actor_id).toBe(users.vertreter.id);
      expect(audit[0]!.object_type).toBe('event');
    });

    it('takes the file as multipart part `file` and serves scriptable types as attachments', async () => {
      const html = Buffer.from('<html><script>alert(1)</script></html>');
      const body = multipart(
        [
          ['title', 'Einladung'],
          ['roles', 'Vertreter'],
          ['start', '2026-12-03T17:00'],
          ['end', '2026-12-03T19:00'],
          ['location', 'Gemeindehaus'],
          ['description', 'Bitte beachten Sie die Anlage.'],
        ],
        { filename: 'einladung.html', type: 'text/html', content: html },
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: { ...users.admin.headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      const event = res.json().event as PortalEvent;
      expect(event.file_format).toBe('html');
      const file = await t.app.inject({
        method: 'GET',
        url: `/api/v1/info/${event.external}`,
        headers: users.vertreter.headers,
      });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(html)).toBe(true);
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="Einladung.html"/);
      expect(file.headers['content-security-policy']).toContain('sandbox');
    });

    it('deletes a stored upload again when validation fails', async () => {
      const before = await storedObjects(t);
      const body = multipart(
        [
          ['title', 'ab'],
          ['roles', 'Vertreter'],
        ],
        { filename: 'plan.pdf', type: 'application/pdf', content: PDF },
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/events',
        headers: { ...users.admin.headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.title).toEqual(['Titel muss mindestens 3 Zeichen lang sein.']);
      expect(await storedObjects(t)).toEqual(before);
      const rejected = await create(
        users.admin.headers,
        validBody({ roles: ['Vertreter'], notifications: ['Aufsichtsrat'], data: dataUrl(PDF) }),
      );
      expect(rejected.statusCode).toBe(422);
      expect(await storedObjects(t)).toEqual(before);
      const missing = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/events/999999',
        headers: users.admin.headers,
        payload: validBody({ data: dataUrl(PDF) }),
      });
      expect(missing.statusCode).toBe(404);
      expect(await storedObjects(t)).toEqual(before);
    });

    it('replaces the file: new object first, the old one deleted after the commit', async () => {
      const event = await createOk(validBody({ data: dataUrl(PDF) }));
      const oldObjects = await storedObjects(t);
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
        payload: validBody({ data: dataUrl(png, 'image/png') }),
      });
      expect(res.statusCode, res.body).toBe(200);
      const updated = res.json().event as PortalEvent;
      expect(updated.file_format).toBe('png');
      expect(updated.external).not.toBe(event.external);

      const oldLink = await t.app.inject({
        method: 'GET',
        url: `/api/v1/info/${event.external}`,
        headers: users.admin.headers,
      });
      expect(oldLink.statusCode).toBe(404);
      const newLink = await t.app.inject({
        method: 'GET',
        url: `/api/v1/info/${updated.external}`,
        headers: users.admin.headers,
      });
      expect(newLink.rawPayload.equals(png)).toBe(true);
      expect(newLink.headers['content-type']).toBe('image/png');

      const objects = await storedObjects(t);
      expect(objects).toHaveLength(oldObjects.length);
      const row = await t.db.kysely
        .selectFrom('events')
        .select('file_storage_key')
        .where('id', '=', event.id)
        .executeTakeFirstOrThrow();
      expect(objects).toContain(row.file_storage_key);
      expect(oldObjects).not.toContain(row.file_storage_key);

      // An update without a file keeps the current one.
      const keep = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
        payload: validBody({ title: 'Ohne neue Datei' }),
      });
      expect(keep.json().event.external).toBe(updated.external);
    });

    it('keeps the object while the event is in the Papierkorb and removes it when purged', async () => {
      const event = await createOk(validBody({ data: dataUrl(PDF) }));
      const row = await t.db.kysely
        .selectFrom('events')
        .select('file_storage_key')
        .where('id', '=', event.id)
        .executeTakeFirstOrThrow();
      expect(await storedObjects(t)).toContain(row.file_storage_key);
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
      });
      expect(res.statusCode).toBe(204);
      expect(await storedObjects(t)).toContain(row.file_storage_key);
      const purge = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/trash/event/${event.id}`,
        headers: users.superAdmin.headers,
      });
      expect(purge.statusCode, purge.body).toBe(204);
      expect(await storedObjects(t)).not.toContain(row.file_storage_key);
      const roles = await t.db.kysely
        .selectFrom('event_roles')
        .select('role_id')
        .where('event_id', '=', event.id)
        .execute();
      expect(roles).toEqual([]);
      const file = await t.app.inject({
        method: 'GET',
        url: `/api/v1/info/${event.external}`,
        headers: users.admin.headers,
      });
      expect(file.statusCode).toBe(404);
    });
  });

  describe('audit', () => {
    it('records create, update and delete with actor and object', async () => {
      const event = await createOk(validBody({ title: 'Audit-Probe' }));
      t.clock.advance(60_000);
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/events/${event.id}`,
        headers: users.superAdmin.headers,
        payload: validBody({ title: 'Audit-Probe geändert', location: 'Anderer Ort' }),
      });
      await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
      });
      const rows = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('object_type', '=', 'event')
        .where('object_id', '=', event.id)
        .orderBy('id')
        .execute();
      expect(rows.map((row) => [row.action, row.actor_id, row.object_label])).toEqual([
        ['event.created', users.admin.id, 'Audit-Probe'],
        ['event.updated', users.superAdmin.id, 'Audit-Probe geändert'],
        ['event.deleted', users.admin.id, 'Audit-Probe geändert'],
      ]);
      expect(JSON.parse(rows[1]!.details!).changed).toEqual(['title', 'location']);
      expect(rows[0]!.actor_label).toContain('<');
    });

    it('leaves no audit entry when a write fails', async () => {
      const before = await t.db.kysely.selectFrom('audit_log').select('id').execute();
      await create(users.admin.headers, validBody({ roles: ['Vertreter'], notifications: ['Aufsichtsrat'] }));
      const after = await t.db.kysely.selectFrom('audit_log').select('id').execute();
      expect(after.length).toBe(before.length);
    });
  });
});

describe('events upload limit', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp({ env: { MAX_UPLOAD_MB: '1' } });
    admin = await createUser(t, { roles: ['Admin'] });
  });
  afterAll(() => t.close());

  it('refuses a data URL one byte over the limit with 413 and keeps nothing', async () => {
    const tooBig = Buffer.alloc(1024 * 1024 + 1, 0x41);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: admin.headers,
      payload: validBody({ data: dataUrl(tooBig, 'text/plain') }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Die Datei ist zu groß. Erlaubt sind höchstens 1 MB.');
    expect(await eventCount(t)).toBe(0);
    expect(await storedObjects(t)).toEqual([]);
  });

  it('refuses a multipart file over the limit with 413 and keeps nothing', async () => {
    const body = multipart(
      [
        ['title', 'Zu groß'],
        ['roles', 'Vertreter'],
        ['start', '2026-12-03T17:00'],
        ['end', '2026-12-03T19:00'],
        ['location', 'Gemeindehaus'],
        ['description', 'Anlage zu groß.'],
      ],
      { filename: 'gross.pdf', type: 'application/pdf', content: Buffer.alloc(1024 * 1024 + 1, 0x41) },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(await eventCount(t)).toBe(0);
    expect(await storedObjects(t)).toEqual([]);
    expect(await tempObjects(t)).toEqual([]);
  });

  it('accepts a file of exactly the limit', async () => {
    const exact = Buffer.alloc(1024 * 1024, 0x42);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: admin.headers,
      payload: validBody({ data: dataUrl(exact, 'text/plain') }),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().event.file_format).toBe('txt');
    expect(await storedObjects(t)).toHaveLength(1);
  });
});
