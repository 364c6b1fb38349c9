import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_MESSAGES } from '@gremienportal/contracts/events';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { NOTICE_MESSAGES, type AgendaPublication } from '@gremienportal/contracts/meeting-notices';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { dataUrl, pdfBytes, uploadFile } from '../../support/files.fixtures.ts';

/** /Aufsichtsrat (2), /Mitgliedervertreter (3), /Allgemein (4), as the seed creates them. */
const FOLDER = { ar: 2, vt: 3, both: 4 } as const;

// Decision 181: "Tagesordnung veröffentlichen", "Mitglieder benachrichtigen" and the Protokoll's recipients.
describe('telling a meeting’s members', () => {
  let t: TestApp;
  let admin: TestUser;
  let ar: TestUser;
  let vt: TestUser;
  let vt2: TestUser;
  let invited: TestUser;
  let docs: Record<'both' | 'ar' | 'later', { id: number; title: string }>;

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, user: TestUser, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: user.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const eventBody = {
    title: 'Gemeinsame Sitzung',
    roles: ['Aufsichtsrat', 'Vertreter'],
    start: '2027-03-10T18:00',
    end: '2027-03-10T20:00',
    location: 'Saal 1',
    description: 'Ordentliche Sitzung',
  };
  const createEvent = async (body: Partial<typeof eventBody> = {}) => {
    const res = await call('POST', '/api/v1/events', admin, { ...eventBody, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event.id as number;
  };
  const putAgenda = async (id: number, items: unknown[]) => {
    const res = await call('PUT', `/api/v1/events/${id}/agenda`, admin, { items });
    expect(res.statusCode, res.body).toBe(200);
  };
  const publish = (id: number, user: TestUser = admin) =>
    call('POST', `/api/v1/events/${id}/agenda/publish`, user);
  const preview = async (id: number): Promise<AgendaPublication> => {
    const res = await call('GET', `/api/v1/events/${id}/agenda/publish`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const mailsTo = (sent: { to: string }[]) => sent.map((mail) => mail.to).sort();
  /** The mails sent since the last call. */
  const takeMail = async () => {
    const sent = [...(await t.flushMail())];
    t.mail.sent.length = 0;
    return sent;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    ar = await createUser(t, { roles: ['Aufsichtsrat'], firstname: 'Łucja', lastname: 'Dvořák-Şahin' });
    vt = await createUser(t, { roles: ['Vertreter'] });
    vt2 = await createUser(t, { roles: ['Vertreter'] });
    // Invited, but has not set a password yet: cannot read the mail's link, gets none.
    invited = await createUser(t, { roles: ['Vertreter'] });
    await t.db.kysely
      .updateTable('users')
      .set({ password_hash: null })
      .where('id', '=', invited.id)
      .execute();
    docs = {
      both: await uploadFile(t, admin, {
        title: 'Einladung',
        folderId: FOLDER.both,
        roles: ['Aufsichtsrat', 'Vertreter'],
      }),
      ar: await uploadFile(t, admin, {
        title: 'Prüfbericht vertraulich',
        folderId: FOLDER.ar,
        roles: ['Aufsichtsrat'],
      }),
      later: await uploadFile(t, admin, {
        title: 'Nachtrag',
        folderId: FOLDER.both,
        roles: ['Aufsichtsrat', 'Vertreter'],
      }),
    };
    await takeMail();
  });
  afterAll(() => t?.close());

  describe('Tagesordnung veröffentlichen', () => {
    let id: number;

    it('mails the agenda once to every invitee with the documents each may see', async () => {
      id = await createEvent();
      await putAgenda(id, [
        { title: 'Begrüßung', file_ids: [docs.both.id, docs.ar.id] },
        { title: 'Verschiedenes' },
      ]);
      expect(await preview(id)).toEqual({ published_at: null, recipients: 3, changes: [] });
      const res = await publish(id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        message: NOTICE_MESSAGES.published(3),
        data: { sent: 3, changes: [] },
      });
      const sent = await takeMail();
      // Not the admin (no role of the meeting), not the invitation not yet accepted.
      expect(mailsTo(sent)).toEqual([ar.email, vt.email, vt2.email].sort());
      const toAr = sent.find((mail) => mail.to === ar.email)!;
      const toVt = sent.find((mail) => mail.to === vt.email)!;
      expect(toAr.subject).toBe('Tagesordnung: Gemeinsame Sitzung');
      expect(toAr.text).toContain('Frau Dvořák-Şahin');
      expect(toAr.text).toContain('TOP 1 Begrüßung – „Einladung“, „Prüfbericht vertraulich“');
      expect(toAr.text).toContain('TOP 2 Verschiedenes');
      expect(toVt.text).toContain('TOP 1 Begrüßung – „Einladung“');
      expect(toVt.text).not.toContain('Prüfbericht');
      expect(toVt.html).not.toContain('Prüfbericht');
      expect(toVt.text).toContain(`http://portal.test/events/show/${id}#sitzungsmappe`);
      expect(toVt.text).toContain(`http://portal.test/events/show/${id}?antwort=zugesagt`);
      const event = (await call('GET', `/api/v1/events/${id}`, vt)).json().data;
      expect(event.agenda_published_at).toBe(t.clock.now().toISOString());
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .select('details')
        .where('action', '=', 'event.agenda_published')
        .where('object_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.details!)).toEqual({ recipients: 3 });
    });

    it('refuses a second publication while nothing changed, and sends nothing', async () => {
      const res = await publish(id);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(NOTICE_MESSAGES.nothingChanged);
      expect(await takeMail()).toEqual([]);
    });

    it('mails what changed since, each member only about documents they see, with the calendar entry', async () => {
      const update = await call('PUT', `/api/v1/events/${id}`, admin, {
        ...eventBody,
        start: '2027-03-10T18:30',
      });
      expect(update.statusCode, update.body).toBe(200);
      const sequence = (
        await t.db.kysely
          .selectFrom('events')
          .select('sequence')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).sequence;
      await putAgenda(id, [
        { title: 'Begrüßung', file_ids: [docs.both.id] },
        { title: 'Jahresabschluss', file_ids: [docs.later.id] },
        { title: 'Verschiedenes' },
      ]);
      expect((await preview(id)).changes).toEqual([
        'Beginn: 18:00 → 18:30 Uhr',
        'Neu auf der Tagesordnung: TOP 2 Jahresabschluss',
        'TOP 2 Verschiedenes ist jetzt TOP 3',
        'Neues Dokument zu TOP 2: „Nachtrag“',
        'Nicht mehr zu TOP 1: „Prüfbericht vertraulich“',
      ]);
      const res = await publish(id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(NOTICE_MESSAGES.changesSent(3));
      const sent = await takeMail();
      const toAr = sent.find((mail) => mail.to === ar.email)!;
      const toVt = sent.find((mail) => mail.to === vt.email)!;
      expect(toVt.subject).toBe('Geändert: Gemeinsame Sitzung');
      expect(toVt.text).toContain('an der folgenden Sitzung hat sich etwas geändert');
      expect(toVt.text).toContain('Beginn: 18:00 → 18:30 Uhr');
      expect(toVt.text).toContain('Neues Dokument zu TOP 2: „Nachtrag“');
      expect(toVt.text).not.toContain('Prüfbericht');
      expect(toAr.text).toContain('Nicht mehr zu TOP 1: „Prüfbericht vertraulich“');
      for (const mail of [toAr, toVt]) {
        expect(mail.calendar?.method).toBe('REQUEST');
        expect(mail.calendar?.content).toContain('METHOD:REQUEST');
        expect(mail.calendar?.content).toContain(`SEQUENCE:${sequence}`);
        expect(mail.calendar?.content).toContain('DTSTART;TZID=Europe/Berlin:20270310T183000');
      }
      expect(toVt.calendar?.content).toContain(`mailto:${vt.email}`);
    });

    it('refuses an empty agenda, and is for admins only; a hidden event is a 404', async () => {
      const empty = await createEvent();
      const res = await publish(empty);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(NOTICE_MESSAGES.emptyAgenda);
      expect((await publish(id, vt)).statusCode).toBe(403);
      expect((await call('GET', `/api/v1/events/${id}/agenda/publish`, vt)).statusCode).toBe(403);
      expect((await publish(999_999)).statusCode).toBe(404);
    });
  });

  describe('Mitglieder benachrichtigen (PUT /events/{id} with notify)', () => {
    it('mails the chosen roles what changed, with METHOD:REQUEST and the raised SEQUENCE', async () => {
      const id = await createEvent({ roles: ['Vertreter', 'Aufsichtsrat'] });
      const res = await call('PUT', `/api/v1/events/${id}`, admin, {
        ...eventBody,
        location: 'Saal 2',
        end: '2027-03-11T09:00',
        notify: true,
        notifications: ['Vertreter'],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().notified).toBe(2);
      const sent = await takeMail();
      expect(mailsTo(sent)).toEqual([vt.email, vt2.email].sort());
      const mail = sent[0]!;
      expect(mail.subject).toBe('Geändert: Gemeinsame Sitzung');
      expect(mail.text).toContain('Ort: Saal 1 → Saal 2');
      expect(mail.text).toContain('Ende: 10.03.2027, 20:00 Uhr → 11.03.2027, 09:00 Uhr');
      expect(mail.text).toContain('an dem folgenden Termin hat sich etwas geändert');
      expect(mail.calendar?.content).toContain('METHOD:REQUEST');
      expect(mail.calendar?.content).toContain('SEQUENCE:1');
      expect(mail.calendar?.content).toContain('LOCATION:Saal 2');
    });

    it('refuses a notice about nothing, without roles, to roles outside the event or with a bad flag', async () => {
      const id = await createEvent({ roles: ['Vertreter'] });
      const cases: [Record<string, unknown>, string, string][] = [
        [{ notify: true, notifications: ['Vertreter'] }, 'notify', EVENT_MESSAGES.notifyNothingChanged],
        [{ location: 'Saal 9', notify: true }, 'notifications', EVENT_MESSAGES.notifyRolesRequired],
        [
          { location: 'Saal 9', notify: true, notifications: ['Aufsichtsrat'] },
          'notifications',
          EVENT_MESSAGES.notificationsOutsideRoles,
        ],
        [
          { location: 'Saal 9', notify: 'vielleicht', notifications: ['Vertreter'] },
          'notify',
          EVENT_MESSAGES.notifyFlag,
        ],
      ];
      for (const [extra, field, message] of cases) {
        const res = await call('PUT', `/api/v1/events/${id}`, admin, {
          ...eventBody,
          roles: ['Vertreter'],
          ...extra,
        });
        expect(res.statusCode, JSON.stringify(extra)).toBe(422);
        expect(res.json().errors[field]).toEqual([message]);
      }
      const row = await t.db.kysely
        .selectFrom('events')
        .select(['location', 'sequence'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ location: 'Saal 1', sequence: 0 });
      expect(await takeMail()).toEqual([]);
    });
  });

  describe('the Protokoll of a meeting that lies ahead', () => {
    it('asks for confirmation, then tells every invitee when the office chooses "alle"', async () => {
      const id = await createEvent();
      const data = dataUrl(pdfBytes('Protokoll'));
      const refused = await call('POST', `/api/v1/events/${id}/minutes`, admin, { data });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.confirm_future).toEqual([MEETING_MESSAGES.minutesFuture]);
      const bad = await call('POST', `/api/v1/events/${id}/minutes`, admin, {
        data,
        confirm_future: true,
        recipients: 'manche',
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.recipients).toEqual([MEETING_MESSAGES.minutesRecipients]);
      expect((await call('GET', `/api/v1/events/${id}`, admin)).json().data.minutes).toBeNull();
      const res = await call('POST', `/api/v1/events/${id}/minutes`, admin, {
        data,
        confirm_future: true,
        recipients: 'alle',
      });
      expect(res.statusCode, res.body).toBe(200);
      const sent = await takeMail();
      expect(mailsTo(sent)).toEqual([ar.email, vt.email, vt2.email].sort());
      expect(sent[0]!.text).toContain('für die folgende Sitzung wurde das Protokoll veröffentlicht');
    });
  });
});
