import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_MESSAGES } from '@gremienportal/contracts/notifications';
import { buildApp } from '../../../src/app.ts';
import { duePeriods } from '../../../src/features/notifications/digest-periods.ts';
import { digestTasks } from '../../../src/features/notifications/notifications.service.ts';
import { spawnServerScript } from '../../reliability/portal-process.ts';
import { buildTestApp, MemoryTransport, type TestApp } from '../../support/build-test-app.ts';
import {
  chooseNotifications,
  createUser,
  roleIds,
  sessionFor,
  type TestUser,
} from '../../support/factories.ts';
import { createFolder, uploadFile } from '../../support/files.fixtures.ts';

/*
 * Benachrichtigungen nach Wunsch (decision 131): the admin's "Benachrichtigung an" decides who is told,
 * each member's setting how: one mail now, a daily or weekly digest at 07:00 Europe/Berlin, or
 * nothing. The test clock starts on Saturday, 21 November 2026, 11:00 in Berlin.
 */
describe('notification settings and digests', () => {
  let t: TestApp;
  let admin: TestUser;
  let meetings: { id: number };
  let reports: { id: number };
  let count = 0;

  const settingsOf = (user: TestUser) =>
    t.app.inject({ method: 'GET', url: '/api/v1/account/notifications', headers: user.headers });
  const putSettings = (user: TestUser, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v1/account/notifications',
      headers: user.headers,
      payload: payload as object,
    });
  const upload = (folderId: number, title: string, roles = ['Vertreter']) =>
    uploadFile(t, admin, { title, folderId, roles, notifications: roles });
  const createEvent = async (title: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: admin.headers,
      payload: {
        title,
        roles: ['Vertreter'],
        notifications: ['Vertreter'],
        start: '2026-12-10T18:00',
        end: '2026-12-10T20:00',
        location: 'Saal 1, Hauptstraße 5',
        description: 'Ordentliche Versammlung mit Tagesordnung.',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event as { id: number };
  };
  const queued = (user: TestUser) =>
    t.db.kysely
      .selectFrom('notification_queue')
      .select(['kind', 'object_id', 'action'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
  /** Sets the clock, runs the digest job as the timer would, and returns the mails it sent. */
  const digestsAt = async (iso: string) => {
    t.clock.set(new Date(iso));
    await t.flushMail();
    const before = t.mail.sent.length;
    const sent = await t.app.digests.run();
    const mails = (await t.flushMail()).slice(before);
    expect(mails.filter((mail) => mail.subject.includes('Zusammenfassung'))).toHaveLength(sent);
    return mails;
  };
  const mailsTo = <M extends { to: string }>(mails: M[], user: TestUser) =>
    mails.filter((mail) => mail.to === user.email);
  /** Everybody so far stops getting documents, and nothing waits: the next counts are this test's own. */
  const quietOthers = async () => {
    await t.db.kysely.deleteFrom('notification_queue').execute();
    await t.db.kysely.updateTable('users').set({ notify_files: 'nie' }).execute();
  };
  /** A member of the Vertreter with the given settings. */
  const member = async (settings: Parameters<typeof chooseNotifications>[2] = {}) => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    await chooseNotifications(t, [user], settings);
    return user;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    meetings = await createFolder(t, admin, { title: 'Sitzungen', folder_id: 3 });
    reports = await createFolder(t, admin, { title: 'Berichte', folder_id: 3 });
  });
  afterAll(() => t.close());

  // Every test starts on a fresh Saturday morning, a week after the last, so none sees another's periods.
  /** Sessions end after an idle hour: the office signs in again. */
  const signInAgain = async () => {
    const token = await sessionFor(t, admin.id);
    admin = { ...admin, token, headers: { authorization: `Bearer ${token}` } };
  };
  const saturday = async () => {
    count += 1;
    const day = new Date(Date.UTC(2026, 10, 21 + 7 * count, 10, 0, 0));
    t.clock.set(day);
    await signInAgain();
    return day;
  };
  const berlin = (base: Date, days: number, time: string) => {
    const date = new Date(base.getTime() + days * 86_400_000).toISOString().slice(0, 10);
    // Winter time in all these weeks: Berlin is UTC+1.
    return `${date}T${time}+01:00`;
  };

  describe('settings', () => {
    it('answers the defaults, saves a choice, audits it and refuses anything else with 422', async () => {
      const user = await createUser(t, { roles: ['Vertreter'] });
      let res = await settingsOf(user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { files: 'taeglich', events: 'sofort' } });

      res = await putSettings(user, { files: 'woechentlich', events: 'nie' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        message: NOTIFICATION_MESSAGES.saved,
        data: { files: 'woechentlich', events: 'nie' },
      });
      expect((await settingsOf(user)).json()).toEqual({ data: { files: 'woechentlich', events: 'nie' } });
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .select(['actor_id', 'object_id', 'details'])
        .where('action', '=', 'account.notifications_updated')
        .where('object_id', '=', user.id)
        .execute();
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actor_id).toBe(user.id);
      expect(JSON.parse(String(audit[0]!.details))).toEqual({ files: 'woechentlich', events: 'nie' });
      // The same choice again changes nothing and records nothing.
      expect((await putSettings(user, { files: 'woechentlich', events: 'nie' })).statusCode).toBe(200);
      expect(
        await t.db.kysely
          .selectFrom('audit_log')
          .select('id')
          .where('action', '=', 'account.notifications_updated')
          .where('object_id', '=', user.id)
          .execute(),
      ).toHaveLength(1);

      for (const payload of [
        { files: 'monatlich', events: 'sofort' },
        { files: 'sofort', events: 'täglich' },
        { files: 'sofort' },
        { files: 1, events: null },
      ]) {
        res = await putSettings(user, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(422);
        expect(res.json().message).toEqual(expect.any(String));
      }
      res = await putSettings(user, { files: 'monatlich', events: 'sofort' });
      expect(res.json().errors).toEqual({ files: [NOTIFICATION_MESSAGES.frequencyInvalid] });
      // Keys the contract does not know are refused by name, as on every route (decision 147).
      res = await putSettings(user, { files: 'sofort', events: 'sofort', more: 1 });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ more: ['Dieses Feld ist unbekannt.'] });
      expect((await settingsOf(user)).json()).toEqual({ data: { files: 'woechentlich', events: 'nie' } });

      const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/account/notifications' });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('delivery by setting', () => {
    it('mails "sofort" members now, queues for täglich and wöchentlich, and leaves "nie" alone', async () => {
      await saturday();
      const now = await member({ files: 'sofort' });
      const daily = await member();
      const weekly = await member({ files: 'woechentlich' });
      const never = await member({ files: 'nie' });
      await t.flushMail();
      const before = t.mail.sent.length;
      const file = await upload(meetings.id, 'Einladung Dezember');
      const mails = (await t.flushMail()).slice(before);

      expect(mailsTo(mails, now).map((mail) => mail.subject)).toEqual([
        'Neues Dokument im Gremienportal: Einladung Dezember',
      ]);
      expect(mailsTo(mails, now)[0]!.text).toMatch(
        /stellen Sie hier ein:\nhttp:\/\/portal\.test\/account#benachrichtigungen$/,
      );
      // Notifications name the settings page in List-Unsubscribe too (decision 133).
      expect(mailsTo(mails, now)[0]!.listUnsubscribe).toBe('http://portal.test/account#benachrichtigungen');
      for (const user of [daily, weekly, never]) expect(mailsTo(mails, user)).toEqual([]);
      expect(await queued(daily)).toEqual([{ kind: 'file', object_id: file.id, action: 'created' }]);
      expect(await queued(weekly)).toEqual([{ kind: 'file', object_id: file.id, action: 'created' }]);
      expect(await queued(never)).toEqual([]);
      expect(await queued(now)).toEqual([]);

      // Events default to "sofort"; a member who wants them daily gets a row instead.
      const dailyEvents = await member({ events: 'taeglich' });
      const event = await createEvent('Vertreterversammlung Dezember');
      const eventMails = (await t.flushMail()).slice(before + mails.length);
      expect(mailsTo(eventMails, daily).map((mail) => mail.subject)).toEqual([
        'Neues Event im Gremienportal: Vertreterversammlung Dezember',
      ]);
      expect(mailsTo(eventMails, daily)[0]!.text).toContain('http://portal.test/account#benachrichtigungen');
      expect(mailsTo(eventMails, daily)[0]!.listUnsubscribe).toBe(
        'http://portal.test/account#benachrichtigungen',
      );
      expect(mailsTo(eventMails, dailyEvents)).toEqual([]);
      expect(await queued(dailyEvents)).toEqual([{ kind: 'event', object_id: event.id, action: 'created' }]);
    });
  });

  describe('digests', () => {
    it('sends one daily digest at 07:00 Berlin, grouped by folder with the events, and nothing more', async () => {
      const base = await saturday();
      const user = await member({ events: 'taeglich' });
      const a = await upload(meetings.id, 'Einladung');
      const b = await upload(reports.id, 'Jahresbericht');
      const c = await upload(meetings.id, 'Anlage zur Einladung');
      const event = await createEvent('Klausurtagung');

      // Before 07:00 on Sunday nothing is due; at 07:00 exactly the digest goes.
      expect(mailsTo(await digestsAt(berlin(base, 1, '06:59:59')), user)).toEqual([]);
      const mails = mailsTo(await digestsAt(berlin(base, 1, '07:00:00')), user);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe(
        'Tägliche Zusammenfassung aus dem Gremienportal: 3 neue Dokumente und 1 neues Event',
      );
      const text = mail.text;
      // Folders in order of their path, documents by title within each.
      const order = [
        'Ordner /Mitgliedervertreter/Berichte',
        `- Jahresbericht.pdf`,
        `http://portal.test/files/show/${b.id}`,
        'Ordner /Mitgliedervertreter/Sitzungen',
        '- Anlage zur Einladung.pdf',
        `http://portal.test/files/show/${c.id}`,
        '- Einladung.pdf',
        `http://portal.test/files/show/${a.id}`,
        'Events',
        '- Klausurtagung: Donnerstag, 10.12.2026, 18:00 Uhr, Saal 1, Hauptstraße 5',
        `http://portal.test/events/show/${event.id}`,
        'http://portal.test/account#benachrichtigungen',
      ];
      const positions = order.map((line) => text.indexOf(line));
      expect(
        positions.every((position) => position >= 0),
        text,
      ).toBe(true);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
      expect(text.trimEnd().endsWith('http://portal.test/account#benachrichtigungen')).toBe(true);
      expect(mail.listUnsubscribe).toBe('http://portal.test/account#benachrichtigungen');
      expect(await queued(user)).toEqual([]);

      // Later the same morning, and the next morning with nothing queued: no mail.
      expect(mailsTo(await digestsAt(berlin(base, 1, '09:30:00')), user)).toEqual([]);
      expect(mailsTo(await digestsAt(berlin(base, 2, '07:01:00')), user)).toEqual([]);
    });

    it('says "1 neues Dokument" and "aktualisiert" in the singular', async () => {
      const base = await saturday();
      const user = await member();
      const file = await upload(meetings.id, 'Protokoll');
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/files/${file.id}`,
        headers: admin.headers,
        payload: { title: 'Protokoll', notifications: ['Vertreter'] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const other = await upload(reports.id, 'Haushalt');
      t.clock.advance(1000);
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/files/${other.id}`,
        headers: admin.headers,
        payload: { title: 'Haushalt', notifications: ['Vertreter'] },
      });
      await t.db.kysely
        .deleteFrom('notification_queue')
        .where('object_id', '=', other.id)
        .where('action', '=', 'created')
        .execute();
      const [mail] = mailsTo(await digestsAt(berlin(base, 1, '07:05:00')), user);
      // "Protokoll" was added and then changed within the day: it is new.
      expect(mail!.subject).toBe(
        'Tägliche Zusammenfassung aus dem Gremienportal: 1 neues Dokument und 1 aktualisiertes Dokument',
      );
      expect(mail!.text).toContain('- Haushalt.pdf (26 Bytes), aktualisiert');
      expect(mail!.text.match(/- Protokoll\.pdf/g)).toHaveLength(1);
    });

    it('sends weekly digests only on Monday mornings, for the week before', async () => {
      const base = await saturday();
      const user = await member({ files: 'woechentlich' });
      const daily = await member();
      const file = await upload(meetings.id, 'Wochenvorlage');
      // Sunday: the daily member gets theirs, the weekly one waits.
      const sunday = await digestsAt(berlin(base, 1, '07:05:00'));
      expect(mailsTo(sunday, daily)).toHaveLength(1);
      expect(mailsTo(sunday, user)).toEqual([]);
      expect(await queued(user)).toEqual([{ kind: 'file', object_id: file.id, action: 'created' }]);
      // Monday before seven: still nothing; at 07:05 the weekly digest.
      expect(mailsTo(await digestsAt(berlin(base, 2, '06:30:00')), user)).toEqual([]);
      const monday = mailsTo(await digestsAt(berlin(base, 2, '07:05:00')), user);
      expect(monday.map((mail) => mail.subject)).toEqual([
        'Wöchentliche Zusammenfassung aus dem Gremienportal: 1 neues Dokument',
      ]);
      expect(monday[0]!.text).toContain(`http://portal.test/files/show/${file.id}`);
      // Tuesday to Sunday bring no weekly digest, also with something new queued.
      await signInAgain();
      await upload(meetings.id, 'Nachtrag');
      for (let day = 3; day <= 8; day += 1) {
        expect(mailsTo(await digestsAt(berlin(base, day, '07:05:00')), user)).toEqual([]);
      }
      expect(mailsTo(await digestsAt(berlin(base, 9, '07:05:00')), user)).toHaveLength(1);
    });

    it('leaves out documents deleted or hidden since, and sends nothing when nothing remains', async () => {
      const base = await saturday();
      const user = await member();
      const moved = await member();
      const kept = await upload(meetings.id, 'Bleibt');
      const deleted = await upload(meetings.id, 'Gelöscht');
      const hidden = await upload(reports.id, 'Verborgen');
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/files/${deleted.id}`,
        headers: admin.headers,
      });
      expect(del.statusCode).toBe(204);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/files/${hidden.id}`,
        headers: admin.headers,
        payload: { title: 'Verborgen', permissions: ['Aufsichtsrat'] },
      });
      expect(res.statusCode, res.body).toBe(200);
      // The other member changes from Vertreter to Aufsichtsrat: none of the documents is theirs now.
      const [aufsichtsrat, vertreter] = await roleIds(t, ['Aufsichtsrat', 'Vertreter']);
      await t.db.kysely
        .updateTable('user_roles')
        .set({ role_id: aufsichtsrat! })
        .where('user_id', '=', moved.id)
        .where('role_id', '=', vertreter!)
        .execute();

      const mails = await digestsAt(berlin(base, 1, '07:05:00'));
      const [mail] = mailsTo(mails, user);
      expect(mail!.subject).toBe('Tägliche Zusammenfassung aus dem Gremienportal: 1 neues Dokument');
      expect(mail!.text).toContain(`http://portal.test/files/show/${kept.id}`);
      for (const gone of [deleted, hidden]) {
        expect(mail!.text).not.toContain(`/files/show/${gone.id}`);
        expect(mail!.text).not.toContain(gone.title);
      }
      expect(mailsTo(mails, moved)).toEqual([]);
      expect(await queued(moved)).toEqual([]);
      const digest = await t.db.kysely
        .selectFrom('notification_digests')
        .select(['items'])
        .where('user_id', '=', moved.id)
        .executeTakeFirstOrThrow();
      expect(digest.items).toBe(0);
    });

    it('drops what was queued when a member chooses "nie"', async () => {
      const base = await saturday();
      const user = await member();
      await upload(meetings.id, 'Abbestellt');
      expect(await queued(user)).toHaveLength(1);
      expect((await putSettings(user, { files: 'nie', events: 'sofort' })).statusCode).toBe(200);
      expect(await queued(user)).toEqual([]);
      expect(mailsTo(await digestsAt(berlin(base, 1, '07:05:00')), user)).toEqual([]);
    });

    it('catches up a missed 07:00 on the next run of the same period', async () => {
      const base = await saturday();
      const user = await member();
      await upload(meetings.id, 'Verspätet');
      // The portal was down from Saturday evening until Sunday 11:30.
      expect(mailsTo(await digestsAt(berlin(base, 1, '11:30:00')), user)).toHaveLength(1);
    });
  });

  describe('exactly once', () => {
    it('sends each digest once with two instances on one database, also after a restart', async () => {
      const base = await saturday();
      await quietOthers();
      const users = await Promise.all(Array.from({ length: 6 }, () => member()));
      await upload(meetings.id, 'Für alle');
      await upload(reports.id, 'Noch eins');
      t.clock.set(new Date(berlin(base, 1, '07:00:30')));

      const transport = new MemoryTransport();
      const second = await buildApp({
        config: t.config,
        db: t.db,
        clock: t.clock,
        mailTransport: transport,
        startBackgroundJobs: false,
        logger: false,
      });
      await second.ready();
      await t.flushMail();
      const before = t.mail.sent.length;
      let sent: number[];
      try {
        sent = await Promise.all([t.app.digests.run(), second.digests.run()]);
        sent.push(await t.app.digests.run(), await second.digests.run());
        await Promise.all([t.app.context.mailSender.flush(), second.context.mailSender.flush()]);
      } finally {
        await second.close();
      }
      const delivered = [...t.mail.sent.slice(before), ...transport.sent];
      for (const user of users) {
        expect(mailsTo(delivered, user).map((mail) => mail.subject)).toEqual([
          'Tägliche Zusammenfassung aus dem Gremienportal: 2 neue Dokumente',
        ]);
      }
      expect(sent.reduce((sum, n) => sum + n, 0)).toBe(users.length);
      const digests = delivered.filter((mail) => mail.subject.includes('Zusammenfassung'));
      expect(new Set(digests.map((mail) => mail.to)).size).toBe(digests.length);

      // A restart: a new instance on the same database finds every digest of the period done.
      t.clock.advance(60 * 60_000);
      const restarted = new MemoryTransport();
      const third = await buildApp({
        config: t.config,
        db: t.db,
        clock: t.clock,
        mailTransport: restarted,
        startBackgroundJobs: false,
        logger: false,
      });
      try {
        await third.ready();
        expect(await third.digests.run()).toBe(0);
        await third.context.mailSender.flush();
      } finally {
        await third.close();
      }
      expect(restarted.sent).toEqual([]);
      const rows = await t.db.kysely
        .selectFrom('notification_digests')
        .select(['user_id', 'cadence', 'period', 'items'])
        .where(
          'user_id',
          'in',
          users.map((user) => user.id),
        )
        .execute();
      expect(rows).toHaveLength(users.length);
      expect(new Set(rows.map((row) => `${row.cadence} ${row.period} ${row.items}`))).toEqual(
        new Set([`daily ${berlin(base, 1, '').slice(0, 10)} 2`]),
      );
    });

    it('runs on the server’s timer and stops with it', async () => {
      const base = await saturday();
      const user = await member();
      await upload(meetings.id, 'Mit dem Zeitgeber');
      t.clock.set(new Date(berlin(base, 1, '07:02:00')));
      const transport = new MemoryTransport();
      const running = await buildApp({
        config: t.config,
        db: t.db,
        clock: t.clock,
        mailTransport: transport,
        logger: false,
      });
      try {
        await running.ready();
        for (let i = 0; i < 100 && mailsTo(transport.sent, user).length === 0; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await running.close();
      }
      expect(mailsTo(transport.sent, user)).toHaveLength(1);
    });
  });

  it('forgets the claims of digests long past in the daily maintenance', async () => {
    const user = await member();
    const now = t.clock.now();
    const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString();
    await t.db.kysely
      .insertInto('notification_digests')
      .values([
        { user_id: user.id, cadence: 'daily', period: '2020-01-01', items: 1, created_at: day(-40) },
        { user_id: user.id, cadence: 'weekly', period: '2020-01-06', items: 1, created_at: day(-8) },
      ])
      .execute();
    for (const task of digestTasks) await task.run(t.app.context);
    const left = await t.db.kysely
      .selectFrom('notification_digests')
      .select('period')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toEqual([{ period: '2020-01-06' }]);
  });

  it('has a command line command that sends what is due at a given time', { timeout: 60_000 }, async () => {
    const base = await saturday();
    await quietOthers();
    const users = [await member(), await member(), await member()];
    await upload(meetings.id, 'Über die Kommandozeile');
    const run = (at: string) =>
      spawnServerScript('src/cli.ts', ['digests', '--at', at], {
        ...process.env,
        DATA_DIR: t.dataDir,
        DATABASE_URL: t.config.DATABASE_URL ?? '',
        PUBLIC_URL: 'http://portal.test',
        LOG_LEVEL: 'warn',
      });
    const early = run(berlin(base, 1, '06:55:00'));
    expect(await early.exited, early.output()).toBe(0);
    expect(early.output()).toContain('0 Zusammenfassungen versandt');
    const due = run(berlin(base, 1, '07:05:00'));
    expect(await due.exited, due.output()).toBe(0);
    expect(due.output()).toContain('3 Zusammenfassungen versandt');
    const again = run(berlin(base, 1, '07:10:00'));
    expect(await again.exited, again.output()).toBe(0);
    expect(again.output()).toContain('0 Zusammenfassungen versandt');
    // The running server's sender delivers them.
    const mails = await t.flushMail();
    for (const user of users) {
      expect(mailsTo(mails, user).map((mail) => mail.subject)).toEqual([
        'Tägliche Zusammenfassung aus dem Gremienportal: 1 neues Dokument',
      ]);
    }
  });
});

describe('digest periods', () => {
  it('are the latest 07:00 in Berlin, weekly the latest Monday 07:00, across the clock change', () => {
    const at = (iso: string) => {
      const { daily, weekly } = duePeriods(new Date(iso));
      return [daily.period, daily.cutoff.toISOString(), weekly.period, weekly.cutoff.toISOString()];
    };
    // Friday 27 November 2026, 06:59 and 07:00 in Berlin (UTC+1).
    expect(at('2026-11-27T05:59:59Z')).toEqual([
      '2026-11-26',
      '2026-11-26T06:00:00.000Z',
      '2026-11-23',
      '2026-11-23T06:00:00.000Z',
    ]);
    expect(at('2026-11-27T06:00:00Z').slice(0, 2)).toEqual(['2026-11-27', '2026-11-27T06:00:00.000Z']);
    // Monday 30 November before and after seven.
    expect(at('2026-11-30T05:00:00Z')[2]).toBe('2026-11-23');
    expect(at('2026-11-30T06:00:00Z')[2]).toBe('2026-11-30');
    // Summer time: 07:00 in Berlin is 05:00 UTC (Monday 29 June 2026).
    expect(at('2026-06-29T05:00:00Z')).toEqual([
      '2026-06-29',
      '2026-06-29T05:00:00.000Z',
      '2026-06-29',
      '2026-06-29T05:00:00.000Z',
    ]);
    // Sunday 29 March 2026, the night the clocks go forward.
    expect(at('2026-03-29T05:00:00Z').slice(0, 2)).toEqual(['2026-03-29', '2026-03-29T05:00:00.000Z']);
  });
});
