// Over 300 lines: every /audit route (list and filters, CSV export, accesses, visible-to, my-logins) and the
// recording through real features share the recorder at a chosen time, the role users and the access table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_ACTIONS,
  AUDIT_CSV_HEADER,
  AUDIT_MESSAGES,
  type AuditEntry,
  type VisibleUser,
} from '@gremienportal/contracts/audit';
import {
  recordAudit,
  type AuditEntry as NewAuditEntry,
} from '../../../src/features/audit/audit-log.service.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, roleIds, type TestUser } from '../../support/factories.ts';
import { formulaCells, parseCsv } from '../../support/csv.ts';
import { EXPORT_BATCH_SIZE } from '../../../src/features/audit/audit.service.ts';

type RoleUsers = Awaited<ReturnType<typeof createRoleUsers>>;
type Who = keyof RoleUsers | 'anonymous';
const EVERYONE: Who[] = ['anonymous', 'vertreter', 'aufsichtsrat', 'admin', 'superAdmin'];
const ADMIN_ONLY: Record<Who, number> = {
  anonymous: 401,
  vertreter: 403,
  aufsichtsrat: 403,
  admin: 200,
  superAdmin: 200,
};

const headersOf = (users: RoleUsers, who: Who) => (who === 'anonymous' ? {} : users[who].headers);

/** Appends an entry through the real recorder, as if it happened at `at`. */
async function record(t: TestApp, at: string, entry: NewAuditEntry): Promise<number> {
  await recordAudit(t.db.kysely, { now: () => new Date(at) }, entry);
  const row = await t.db.kysely
    .selectFrom('audit_log')
    .select('id')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function get(t: TestApp, url: string, who: TestUser) {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

const idsOf = (body: { data: AuditEntry[] }) => body.data.map((entry) => entry.id);

describe('audit API: who may call what', () => {
  let t: TestApp;
  let users: RoleUsers;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    await record(t, '2026-11-20T10:00:00.000Z', { action: 'file.viewed', objectType: 'file', objectId: 1 });
  });
  afterAll(() => t.close());

  const adminUrls = [
    '/api/v1/audit',
    '/api/v1/audit.csv',
    '/api/v1/audit/object/file/1',
    '/api/v1/audit/visible-to/folder/1',
  ];
  for (const url of adminUrls) {
    it.each(EVERYONE)(`GET ${url} as %s`, async (who) => {
      const res = await t.app.inject({ method: 'GET', url, headers: headersOf(users, who) });
      expect(res.statusCode).toBe(ADMIN_ONLY[who]);
      if (res.statusCode === 401) expect(res.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
      if (res.statusCode === 403)
        expect(res.json()).toEqual({ message: 'Dafür fehlt Ihnen die Berechtigung.' });
      if (res.statusCode !== 200) expect(res.body).not.toContain('file.viewed');
    });
  }

  it.each(EVERYONE)('GET /audit/my-logins as %s', async (who) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audit/my-logins',
      headers: headersOf(users, who),
    });
    expect(res.statusCode).toBe(who === 'anonymous' ? 401 : 200);
  });

  it.each([
    ['PUT', '/api/v1/audit/1'],
    ['PATCH', '/api/v1/audit/1'],
    ['DELETE', '/api/v1/audit/1'],
    ['DELETE', '/api/v1/audit'],
    ['POST', '/api/v1/audit'],
    ['PUT', '/api/v1/audit'],
  ] as const)('%s %s does not exist and changes nothing', async (method, url) => {
    const before = await t.db.kysely.selectFrom('audit_log').selectAll().orderBy('id').execute();
    const res = await t.app.inject({
      method,
      url,
      headers: users.superAdmin.headers,
      payload: { action: 'auth.login', at: '2020-01-01T00:00:00.000Z' },
    });
    expect([404, 405]).toContain(res.statusCode);
    const after = await t.db.kysely.selectFrom('audit_log').selectAll().orderBy('id').execute();
    expect(after).toEqual(before);
  });
});

describe('GET /audit: entries, filters and pages', () => {
  let t: TestApp;
  let admin: TestUser;
  const ids: Record<string, number> = {};
  const erika = { id: 501, label: 'Erika Mustermann <erika@example.org>' };
  const oeztuerk = { id: 502, label: 'Ömer Öztürk <oemer@example.org>' };
  const percent = { id: 503, label: 'Prozent 100%sicher <p@example.org>' };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    // Berlin days around 21 November 2026 (CET, UTC+1) and one summer day (CEST, UTC+2).
    ids.day20End = await record(t, '2026-11-20T22:59:59.999Z', {
      actor: erika,
      action: 'auth.login',
      objectType: 'user',
      objectId: erika.id,
      objectLabel: erika.label,
      ip: '203.0.113.7',
    });
    ids.day21Start = await record(t, '2026-11-20T23:00:00.000Z', {
      actor: erika,
      action: 'file.downloaded',
      objectType: 'file',
      objectId: 7,
      objectLabel: 'Bilanz 2025',
      details: { format: 'pdf' },
      ip: '203.0.113.7',
    });
    ids.day21Mid = await record(t, '2026-11-21T09:00:00.000Z', {
      actor: oeztuerk,
      action: 'user.updated',
      objectType: 'user',
      objectId: erika.id,
      objectLabel: erika.label,
      details: { changed: ['lastname', 'email'] },
      ip: '2001:db8:1:2::5',
    });
    ids.day21End = await record(t, '2026-11-21T22:59:59.999Z', {
      actor: erika,
      action: 'file.viewed',
      objectType: 'file',
      objectId: 8,
      objectLabel: 'Protokoll AR',
    });
    ids.day22Start = await record(t, '2026-11-21T23:00:00.000Z', {
      actor: percent,
      action: 'folder.created',
      objectType: 'folder',
      objectId: 12,
      objectLabel: 'Neu',
    });
    ids.summerEnd = await record(t, '2026-07-01T21:59:59.000Z', {
      actor: oeztuerk,
      action: 'event.created',
      objectType: 'event',
      objectId: 3,
      objectLabel: 'Sommerfest',
    });
    ids.summerNext = await record(t, '2026-07-01T22:00:00.000Z', {
      action: 'auth.login_failed',
      objectType: 'user',
      objectLabel: 'unbekannt@example.org',
      ip: '198.51.100.9',
    });
    ids.unknownAction = await record(t, '2026-06-01T08:00:00.000Z', {
      actor: erika,
      action: 'future.thing',
    });
  });
  afterAll(() => t.close());

  const list = (query = '') => get(t, `/api/v1/audit${query}`, admin);

  it('answers every entry newest first with the German labels and parsed details', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([
      ids.day22Start,
      ids.day21End,
      ids.day21Mid,
      ids.day21Start,
      ids.day20End,
      ids.summerNext,
      ids.summerEnd,
      ids.unknownAction,
    ]);
    expect(body.meta).toEqual({ total: 8, page: 1, per_page: 10 });
    const entry = body.data.find((e: AuditEntry) => e.id === ids.day21Mid);
    expect(entry).toEqual({
      id: ids.day21Mid,
      at: '2026-11-21T09:00:00.000Z',
      actor_id: oeztuerk.id,
      actor_label: oeztuerk.label,
      action: 'user.updated',
      action_label: 'Nutzer geändert',
      object_type: 'user',
      object_id: erika.id,
      object_label: erika.label,
      details: { changed: ['lastname', 'email'] },
      ip: '2001:db8:1:2::5',
    });
    const labels = Object.fromEntries(body.data.map((e: AuditEntry) => [e.action, e.action_label]));
    expect(labels).toMatchObject({
      'auth.login': 'Anmeldung',
      'auth.login_failed': 'Anmeldung fehlgeschlagen',
      'file.downloaded': 'Datei heruntergeladen',
      'file.viewed': 'Datei angesehen',
      'folder.created': 'Ordner angelegt',
      'event.created': 'Event angelegt',
      // An action without a label shows its raw name.
      'future.thing': 'future.thing',
    });
    expect(body.data.find((e: AuditEntry) => e.id === ids.summerNext)).toMatchObject({
      actor_id: null,
      actor_label: null,
      details: null,
    });
  });

  it('has a German label for every action the features record', () => {
    expect(AUDIT_ACTIONS).toMatchObject({
      'auth.reset_requested': 'Passwort-Reset angefordert',
      'auth.reset_completed': 'Passwort zurückgesetzt',
      'user.invited': 'Einladung versendet',
      'auth.invitation_accepted': 'Einladung angenommen',
      'auth.logout': 'Abmeldung',
      'period.created': 'Amtsperiode angelegt',
      'event.file_downloaded': 'Event-Datei heruntergeladen',
      'user.roles_changed': 'Rollen geändert',
      'account.updated': 'Account geändert',
      'file.version_restored': 'Dateiversion wiederhergestellt',
      'file.version_removed': 'Alte Dateiversion entfernt',
      'trash.restored': 'Aus dem Papierkorb wiederhergestellt',
      'trash.purged': 'Endgültig gelöscht',
      'trash.expired': 'Nach Ablauf endgültig gelöscht',
      'trash.emptied': 'Papierkorb geleert',
      'account.two_factor_enabled': 'Zwei-Faktor-Anmeldung eingerichtet',
      'account.two_factor_disabled': 'Zwei-Faktor-Anmeldung ausgeschaltet',
      'account.recovery_codes_renewed': 'Neue Wiederherstellungscodes erzeugt',
      'account.passkey_added': 'Passkey hinzugefügt',
      'account.passkey_removed': 'Passkey entfernt',
      'search.performed': 'Gesucht',
      'user.two_factor_reset': 'Zwei-Faktor-Anmeldung zurückgesetzt',
      'event.agenda_updated': 'Tagesordnung geändert',
      'event.attendance_answered': 'Zu- oder Absage gegeben',
      'event.attendance_reminded': 'Erinnerung an offene Antworten gesendet',
      'event.minutes_published': 'Protokoll veröffentlicht',
      'event.agenda_published': 'Tagesordnung veröffentlicht',
      'event.agenda_changes_published': 'Änderungen der Tagesordnung mitgeteilt',
      'event.minutes_removed': 'Protokoll entfernt',
      'event.minutes_downloaded': 'Protokoll heruntergeladen',
      'event.book_downloaded': 'Sitzungsmappe heruntergeladen',
      'account.calendar_feed_created': 'Kalender-Abonnement eingerichtet',
      'account.calendar_feed_revoked': 'Kalender-Abonnement beendet',
      'file.acknowledged': 'Kenntnisnahme bestätigt',
      'file.acknowledgement_reminded': 'Erinnerung zur Kenntnisnahme gesendet',
      'account.notifications_updated': 'Benachrichtigungen geändert',
      'api_key.created': 'API-Schlüssel angelegt',
      'api_key.revoked': 'API-Schlüssel widerrufen',
      'api_key.refused': 'API-Schlüssel abgewiesen',
      'committee.created': 'Gremium angelegt',
      'committee.updated': 'Gremium geändert',
      'committee.deleted': 'Gremium gelöscht',
      'term.created': 'Amtsperiode eines Gremiums angelegt',
      'term.updated': 'Amtsperiode geändert',
      'term.deleted': 'Amtsperiode gelöscht',
      'term.archived': 'Amtsperiode archiviert',
      'term.reopened': 'Archivierte Amtsperiode wieder geöffnet',
      'membership.created': 'Mitgliedschaft angelegt',
      'membership.updated': 'Mitgliedschaft geändert',
      'membership.deleted': 'Mitgliedschaft gelöscht',
      'membership.started': 'Mitgliedschaft begonnen',
      'membership.ended': 'Mitgliedschaft beendet',
      'membership.successor': 'Ersatzmitglied nachgerückt',
      'membership.imported': 'Mitglieder importiert',
      'motion.created': 'Beschlussvorlage angelegt',
      'motion.updated': 'Beschlussvorlage geändert',
      'motion.voided': 'Abstimmung durch Änderung der Vorlage ungültig',
      'motion.deleted': 'Beschlussvorlage gelöscht',
      'motion.opened': 'Abstimmung geöffnet',
      'motion.voted': 'Stimme abgegeben',
      'motion.secret_participation': 'Teilnahme an geheimer Abstimmung festgehalten',
      'motion.objected': 'Widerspruch im Umlaufverfahren',
      'motion.objection_stopped': 'Umlaufverfahren durch Widerspruch beendet',
      'motion.conflict_declared': 'Interessenkonflikt erklärt',
      'motion.hand_counted': 'Handzeichen gezählt',
      'motion.closed': 'Abstimmung geschlossen',
      'motion.withdrawn': 'Beschlussvorlage zurückgezogen',
      'motion.reminded': 'An die Abstimmung erinnert',
      'resolution.established': 'Beschluss festgestellt',
      'resolution.corrected': 'Beschluss berichtigt',
      'resolution.follow_up': 'Umsetzung eines Beschlusses gepflegt',
      'minutes.created': 'Niederschrift erstellt',
      'minutes.saved': 'Niederschrift gespeichert',
    });
    expect(Object.keys(AUDIT_ACTIONS)).toHaveLength(89);
  });

  it('filters by the acting person: id, or text in name and e-mail (any case, umlauts)', async () => {
    expect(idsOf((await list(`?actor_id=${oeztuerk.id}`)).body)).toEqual([ids.day21Mid, ids.summerEnd]);
    expect(idsOf((await list('?q=ERIKA')).body)).toEqual([
      ids.day21End,
      ids.day21Start,
      ids.day20End,
      ids.unknownAction,
    ]);
    expect(idsOf((await list('?q=erika%40example')).body)).toHaveLength(4);
    expect(idsOf((await list(`?q=${encodeURIComponent('Öztürk')}`)).body)).toEqual([
      ids.day21Mid,
      ids.summerEnd,
    ]);
    expect(idsOf((await list(`?q=${encodeURIComponent('öztürk')}`)).body)).toEqual([
      ids.day21Mid,
      ids.summerEnd,
    ]);
    // The object is not the person: Erika as the object of a change does not count.
    expect(idsOf((await list('?q=erika')).body)).not.toContain(ids.day21Mid);
    // LIKE wildcards are plain text.
    expect(idsOf((await list(`?q=${encodeURIComponent('100%s')}`)).body)).toEqual([ids.day22Start]);
    expect(idsOf((await list(`?q=${encodeURIComponent('%')}`)).body)).toEqual([ids.day22Start]);
    expect(idsOf((await list('?q=_')).body)).toEqual([]);
    expect((await list('?q=')).body.meta.total).toBe(8);
  });

  it('filters by one or several actions, repeated or comma-separated', async () => {
    expect(idsOf((await list('?action=auth.login')).body)).toEqual([ids.day20End]);
    const repeated = await list('?action=auth.login&action=auth.login_failed');
    expect(idsOf(repeated.body)).toEqual([ids.day20End, ids.summerNext]);
    const comma = await list('?action=auth.login,auth.login_failed,file.viewed');
    expect(idsOf(comma.body)).toEqual([ids.day21End, ids.day20End, ids.summerNext]);
    expect((await list('?action=user.deleted')).body).toEqual({
      data: [],
      meta: { total: 0, page: 1, per_page: 10 },
    });
  });

  it('filters by object type and id', async () => {
    expect(idsOf((await list('?object_type=file')).body)).toEqual([ids.day21End, ids.day21Start]);
    expect(idsOf((await list('?object_type=file&object_id=7')).body)).toEqual([ids.day21Start]);
    expect(idsOf((await list(`?object_type=user&object_id=${erika.id}`)).body)).toEqual([
      ids.day21Mid,
      ids.day20End,
    ]);
  });

  it('reads days as Europe/Berlin calendar days, both ends included', async () => {
    expect(idsOf((await list('?from=2026-11-21&to=2026-11-21')).body)).toEqual([
      ids.day21End,
      ids.day21Mid,
      ids.day21Start,
    ]);
    expect(idsOf((await list('?from=2026-11-21')).body)).toEqual([
      ids.day22Start,
      ids.day21End,
      ids.day21Mid,
      ids.day21Start,
    ]);
    expect(idsOf((await list('?to=2026-11-20')).body)).toEqual([
      ids.day20End,
      ids.summerNext,
      ids.summerEnd,
      ids.unknownAction,
    ]);
    // Summer time: the Berlin day of 1 July ends at 22:00 UTC.
    expect(idsOf((await list('?from=2026-07-01&to=2026-07-01')).body)).toEqual([ids.summerEnd]);
    expect(idsOf((await list('?from=2026-07-02&to=2026-07-02')).body)).toEqual([ids.summerNext]);
  });

  it('reads ISO times as instants, both ends included', async () => {
    const range = await list('?from=2026-11-20T23:00:00Z&to=2026-11-21T09:00:00.000Z');
    expect(idsOf(range.body)).toEqual([ids.day21Mid, ids.day21Start]);
    const offset = await list(`?from=${encodeURIComponent('2026-11-21T10:00:00+01:00')}`);
    expect(idsOf(offset.body)).toEqual([ids.day22Start, ids.day21End, ids.day21Mid]);
  });

  it('combines filters', async () => {
    const res = await list('?q=erika&action=file.viewed,file.downloaded&from=2026-11-21&to=2026-11-21');
    expect(idsOf(res.body)).toEqual([ids.day21End, ids.day21Start]);
  });

  it('pages: page and per_page, with the total of all matches', async () => {
    const first = await list('?per_page=3');
    expect(idsOf(first.body)).toEqual([ids.day22Start, ids.day21End, ids.day21Mid]);
    expect(first.body.meta).toEqual({ total: 8, page: 1, per_page: 3 });
    const third = await list('?per_page=3&page=3');
    expect(idsOf(third.body)).toEqual([ids.summerEnd, ids.unknownAction]);
    expect(third.body.meta).toEqual({ total: 8, page: 3, per_page: 3 });
    const beyond = await list('?per_page=3&page=9');
    expect(beyond.body).toEqual({ data: [], meta: { total: 8, page: 9, per_page: 3 } });
    const filtered = await list('?q=erika&per_page=2&page=2');
    expect(idsOf(filtered.body)).toEqual([ids.day20End, ids.unknownAction]);
    expect(filtered.body.meta.total).toBe(4);
    expect((await list('?per_page=100')).status).toBe(200);
  });

  it.each([
    ['?per_page=101', 'per_page', AUDIT_MESSAGES.invalidPerPage],
    ['?per_page=0', 'per_page', AUDIT_MESSAGES.invalidPerPage],
    ['?page=0', 'page', AUDIT_MESSAGES.invalidPage],
    ['?page=zwei', 'page', AUDIT_MESSAGES.invalidPage],
    ['?from=gestern', 'from', AUDIT_MESSAGES.invalidTime],
    ['?to=2026-02-30', 'to', AUDIT_MESSAGES.invalidTime],
    ['?from=2026-11-22&to=2026-11-21', 'to', AUDIT_MESSAGES.rangeReversed],
    ['?object_type=tabelle', 'object_type', AUDIT_MESSAGES.invalidObjectType],
    ['?object_id=abc', 'object_id', 'Ungültige ID.'],
    ['?actor_id=-1', 'actor_id', 'Ungültige ID.'],
    [`?action=${encodeURIComponent("x'; drop table audit_log; --")}`, 'action', AUDIT_MESSAGES.invalidAction],
    [`?q=${'x'.repeat(101)}`, 'q', AUDIT_MESSAGES.queryTooLong],
  ])('refuses %s with a German 422 under %s', async (query, field, message) => {
    const { status, body } = await list(query);
    expect(status).toBe(422);
    expect(body.message).toBe('Die Eingaben sind ungültig.');
    expect(Object.keys(body.errors)).toContain(field);
    expect(body.errors[field]).toContain(message);
    expect((await t.db.kysely.selectFrom('audit_log').select('id').execute()).length).toBe(8);
  });
});

describe('GET /audit.csv', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    // 22 November just after midnight in Berlin, still 21 November in UTC.
    t.clock.set(new Date('2026-11-21T23:30:00.000Z'));
    admin = await createUser(t, { roles: ['Super-Admin'] });
    await record(t, '2026-11-21T09:30:05.000Z', {
      actor: { id: 1, label: 'Gesa Schäfer <gs@example.org>' },
      action: 'file.created',
      objectType: 'file',
      objectId: 42,
      objectLabel: 'Bericht; "final"\nzweite Zeile',
      details: { roles: ['Aufsichtsrat', 'Vertreter'], folder: 'Aufsichtsrat' },
      ip: '203.0.113.7',
    });
    await record(t, '2026-11-21T09:31:00.000Z', {
      actor: { id: 2, label: '=HYPERLINK("http://böse.example","klick") <x@example.org>' },
      action: 'folder.created',
      objectType: 'folder',
      objectId: 5,
      objectLabel: '+SUMME(A1:A9)',
      details: { title: '-2+3' },
    });
    await record(t, '2026-07-01T12:00:00.000Z', {
      action: 'auth.login_failed',
      objectType: 'user',
      objectLabel: '@angriff',
      ip: '198.51.100.1',
    });
  });
  afterAll(() => t.close());

  async function csv(query = '') {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/audit.csv${query}`,
      headers: admin.headers,
    });
    return { res, text: res.rawPayload.toString('utf8') };
  }

  it('answers an Excel-ready CSV: BOM, semicolons, German header, attachment name with the Berlin date', async () => {
    const { res, text } = await csv();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="aktivitaeten-2026-11-22\.csv"/,
    );
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = text.slice(1).split('\r\n');
    expect(lines[0]).toBe(
      '"Zeitpunkt (Europe/Berlin)";"Person";"Aktion";"Objekttyp";"Objekt-ID";"Objekt";"Details";"Adresse"',
    );
    expect(parseCsv(lines[0]!, ';')).toEqual([[...AUDIT_CSV_HEADER]]);
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('writes de-DE Berlin times, German labels, quotes and doubles quotes, keeps line breaks inside quotes', async () => {
    const { text } = await csv('?action=file.created');
    const body = text.slice(1).split('\r\n').slice(1).join('\r\n');
    expect(body).toBe(
      '"21.11.2026 10:30:05";"Gesa Schäfer <gs@example.org>";"Datei hochgeladen";"Datei";"42";' +
        '"Bericht; ""final""\nzweite Zeile";"Rollen: Aufsichtsrat, Vertreter; Ordner: Aufsichtsrat";' +
        '"203.0.113.7"\r\n',
    );
  });

  it('guards against formula injection: cells starting with = + - @ get an apostrophe', async () => {
    const { text } = await csv('?object_type=folder');
    const row = text.slice(1).split('\r\n')[1]!;
    expect(row).toBe(
      `"21.11.2026 10:31:00";"'=HYPERLINK(""http://böse.example"",""klick"") <x@example.org>";"Ordner angelegt";"Ordner";"5";"'+SUMME(A1:A9)";"Titel: '-2+3";""`,
    );
    const failed = (await csv('?action=auth.login_failed')).text.slice(1).split('\r\n')[1]!;
    expect(failed).toBe(
      `"01.07.2026 14:00:00";"";"Anmeldung fehlgeschlagen";"Nutzer";"";"'@angriff";"";"198.51.100.1"`,
    );
  });

  it('applies the filters and keeps newest first', async () => {
    const { text } = await csv('?from=2026-11-21');
    const rows = text.slice(1).split('\r\n').filter(Boolean);
    expect(rows).toHaveLength(1 + 2);
    expect(rows[1]).toContain('Ordner angelegt');
    const bad = await csv('?from=morgen');
    expect(bad.res.statusCode).toBe(422);
    expect(bad.res.json().errors.from).toEqual([AUDIT_MESSAGES.invalidTime]);
  });

  it('exports every row exactly once across batches, even with equal times', async () => {
    const count = EXPORT_BATCH_SIZE * 2 + 7;
    const rows = Array.from({ length: count }, (_, i) => ({
      at: i < EXPORT_BATCH_SIZE + 3 ? '2025-01-01T00:00:00.000Z' : '2025-01-02T00:00:00.000Z',
      actor_id: null,
      actor_label: null,
      action: 'file.viewed',
      object_type: 'file',
      object_id: 100_000 + i,
      object_label: `Massendatei ${i}`,
      details: null,
      ip: null,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await t.db.kysely
        .insertInto('audit_log')
        .values(rows.slice(i, i + 200))
        .execute();
    }
    const { text } = await csv('?q=&object_type=file&from=2025-01-01&to=2025-01-02');
    const lines = parseCsv(text.slice(1), ';').slice(1);
    expect(lines).toHaveLength(count);
    const objectIds = lines.map((line) => Number(line[4]));
    expect(new Set(objectIds).size).toBe(count);
    // Newest first; equal times newest inserted first.
    expect(objectIds[0]).toBe(100_000 + count - 1);
    expect(objectIds.at(-1)).toBe(100_000);
  });

  it('lets no cell start a formula, whether the file is opened with `;` or with `,` as separator', async () => {
    const nasty = ['x,=1+2', 'a;@SUM(1)', '"=cmd"', '\t=1+1', '\r=1+1', '-2+3', 'Zeile\n=1', 'a, "+2"'];
    for (const [i, title] of nasty.entries()) {
      await record(t, `2024-03-01T10:00:0${i}.000Z`, {
        actor: { id: 1, label: `${title} <x@example.org>` },
        action: 'file.created',
        objectType: 'file',
        objectId: 900 + i,
        objectLabel: title,
        details: { title: { from: title, to: `b,${title}` } },
        ip: '203.0.113.9',
      });
    }
    const { res, text } = await csv('?from=2024-03-01&to=2024-03-01');
    expect(res.statusCode).toBe(200);
    const body = text.slice(1);
    for (const separator of [';', ','] as const) {
      const cells = parseCsv(body, separator);
      expect(cells.flat().some((cell) => cell.includes('=1+2'))).toBe(true);
      expect(formulaCells(cells), `Trennzeichen ${separator}`).toEqual([]);
    }
    // BOM and `;` stay, for German Excel.
    expect(text.startsWith('\uFEFF"Zeitpunkt (Europe/Berlin)";')).toBe(true);
    // With `;` every title reads back, with only the apostrophes added.
    const rows = parseCsv(body, ';').slice(1);
    expect(rows).toHaveLength(nasty.length);
    expect(rows.map((row) => row[5]!.replaceAll("'", '')).sort()).toEqual(
      nasty.map((title) => title.replaceAll("'", '')).sort(),
    );
  });
});

describe('GET /audit/object/{type}/{id}: accesses of one file or event', () => {
  let t: TestApp;
  let admin: TestUser;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    const reader = { id: 77, label: 'Lea Leser <lea@example.org>' };
    ids.viewed = await record(t, '2026-11-01T10:00:00.000Z', {
      actor: reader,
      action: 'file.viewed',
      objectType: 'file',
      objectId: 9,
      objectLabel: 'Satzung',
      ip: '203.0.113.5',
    });
    ids.downloaded = await record(t, '2026-11-02T10:00:00.000Z', {
      actor: reader,
      action: 'file.downloaded',
      objectType: 'file',
      objectId: 9,
      objectLabel: 'Satzung',
    });
    await record(t, '2026-11-03T10:00:00.000Z', {
      actor: reader,
      action: 'file.updated',
      objectType: 'file',
      objectId: 9,
      objectLabel: 'Satzung',
    });
    await record(t, '2026-11-03T10:00:00.000Z', {
      actor: reader,
      action: 'file.downloaded',
      objectType: 'file',
      objectId: 10,
    });
    ids.eventDownload = await record(t, '2026-11-04T10:00:00.000Z', {
      actor: reader,
      action: 'event.file_downloaded',
      objectType: 'event',
      objectId: 9,
      objectLabel: 'Versammlung',
    });
  });
  afterAll(() => t.close());

  it('lists only views and downloads of that file, newest first', async () => {
    const { status, body } = await get(t, '/api/v1/audit/object/file/9', admin);
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([ids.downloaded, ids.viewed]);
    expect(body.data.map((e: AuditEntry) => e.action_label)).toEqual([
      'Datei heruntergeladen',
      'Datei angesehen',
    ]);
    expect(body.meta).toEqual({ total: 2, page: 1, per_page: 10 });
    const paged = await get(t, '/api/v1/audit/object/file/9?per_page=1&page=2', admin);
    expect(idsOf(paged.body)).toEqual([ids.viewed]);
  });

  it('lists the downloads of an event file', async () => {
    const { body } = await get(t, '/api/v1/audit/object/event/9', admin);
    expect(idsOf(body)).toEqual([ids.eventDownload]);
  });

  it('answers 404 for other object types and malformed ids', async () => {
    expect((await get(t, '/api/v1/audit/object/user/9', admin)).status).toBe(404);
    expect((await get(t, '/api/v1/audit/object/file/abc', admin)).status).toBe(404);
    expect((await get(t, '/api/v1/audit/object/file/9?per_page=500', admin)).status).toBe(422);
  });
});

describe('GET /audit/visible-to/{type}/{id}: who can see it now', () => {
  let t: TestApp;
  let users: RoleUsers;
  let both: TestUser;
  let nobody: TestUser;
  let role: Record<'Aufsichtsrat' | 'Vertreter', number>;
  const created: Record<string, number> = {};

  async function folder(parentId: number, title: string, roles: number[]): Promise<number> {
    const now = t.clock.now().toISOString();
    const row = await t.db.kysely
      .insertInto('folders')
      .values({ parent_id: parentId, title, breadcrumb: `/x/${title}`, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (roles.length > 0) {
      await t.db.kysely
        .insertInto('folder_roles')
        .values(roles.map((role_id) => ({ folder_id: row.id, role_id })))
        .execute();
    }
    return row.id;
  }

  async function file(folderId: number, title: string, roles: number[]): Promise<number> {
    const now = t.clock.now().toISOString();
    const row = await t.db.kysely
      .insertInto('files')
      .values({
        folder_id: folderId,
        title,
        format: 'pdf',
        mime_type: 'application/pdf',
        size_bytes: 10,
        sha256: 'a'.repeat(64),
        storage_key: `key-${title}`,
        download_key: `dl-${title}`,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (roles.length > 0) {
      await t.db.kysely
        .insertInto('file_roles')
        .values(roles.map((role_id) => ({ file_id: row.id, role_id })))
        .execute();
    }
    return row.id;
  }

  async function event(title: string, roles: number[]): Promise<number> {
    const now = t.clock.now().toISOString();
    const row = await t.db.kysely
      .insertInto('events')
      .values({
        uid: `uid-${title}`,
        sequence: 0,
        title,
        start_at: now,
        end_at: now,
        location: 'Saal',
        description: 'Beschreibung',
        file_storage_key: null,
        file_download_key: null,
        file_format: null,
        file_mime_type: null,
        file_size_bytes: null,
        file_sha256: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (roles.length > 0) {
      await t.db.kysely
        .insertInto('event_roles')
        .values(roles.map((role_id) => ({ event_id: row.id, role_id })))
        .execute();
    }
    return row.id;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    both = await createUser(t, { roles: ['Aufsichtsrat', 'Vertreter'], lastname: 'Beide' });
    nobody = await createUser(t, { roles: [], lastname: 'Ohnerolle' });
    const [ar, vt] = await roleIds(t, ['Aufsichtsrat', 'Vertreter']);
    role = { Aufsichtsrat: ar!, Vertreter: vt! };
    // Under /Aufsichtsrat (role Aufsichtsrat): a folder that also names Vertreter stays closed to them.
    created.arSub = await folder(2, 'AR-Unterordner', [role.Aufsichtsrat, role.Vertreter]);
    created.arFile = await file(created.arSub, 'AR-Bericht', [role.Aufsichtsrat, role.Vertreter]);
    // Under /Allgemein (both roles): a file for Vertreter only.
    created.generalFile = await file(4, 'Rundschreiben', [role.Vertreter]);
    created.rootFile = await file(1, 'Wurzeldatei', [role.Aufsichtsrat]);
    created.arEvent = await event('AR-Sitzung', [role.Aufsichtsrat]);
    created.noRoleEvent = await event('Ohne Rollen', []);
  });
  afterAll(() => t.close());

  async function visible(type: string, id: number): Promise<VisibleUser[]> {
    const { status, body } = await get(t, `/api/v1/audit/visible-to/${type}/${id}`, users.admin);
    expect(status).toBe(200);
    return body.data;
  }
  const emails = (list: VisibleUser[]) => list.map((user) => user.email).sort();
  const admins = () => ['admin@example.org', users.admin.email, users.superAdmin.email];

  it('a folder: Admins always, others when every folder on the path shares a role with them', async () => {
    expect(emails(await visible('folder', created.arSub!))).toEqual(
      [...admins(), users.aufsichtsrat.email, both.email].sort(),
    );
    expect(emails(await visible('folder', 3))).toEqual(
      [...admins(), users.vertreter.email, both.email].sort(),
    );
    // The root is open to every signed-in user.
    expect(emails(await visible('folder', 1))).toEqual(
      [...admins(), users.aufsichtsrat.email, users.vertreter.email, both.email, nobody.email].sort(),
    );
  });

  it('a file: its folder path and its own roles', async () => {
    expect(emails(await visible('file', created.arFile!))).toEqual(
      [...admins(), users.aufsichtsrat.email, both.email].sort(),
    );
    expect(emails(await visible('file', created.generalFile!))).toEqual(
      [...admins(), users.vertreter.email, both.email].sort(),
    );
    expect(emails(await visible('file', created.rootFile!))).toEqual(
      [...admins(), users.aufsichtsrat.email, both.email].sort(),
    );
  });

  it('an event: a shared role', async () => {
    const list = await visible('event', created.arEvent!);
    expect(emails(list)).toEqual([...admins(), users.aufsichtsrat.email, both.email].sort());
    expect(list.find((user) => user.email === users.superAdmin.email)).toMatchObject({
      reason: 'admin',
      roles: ['Super-Admin'],
    });
    expect(list.find((user) => user.email === both.email)).toEqual({
      id: both.id,
      title: 'Frau',
      firstname: 'Erika',
      lastname: 'Beide',
      email: both.email,
      roles: ['Aufsichtsrat', 'Vertreter'],
      reason: 'roles',
    });
    expect(emails(await visible('event', created.noRoleEvent!))).toEqual(admins().sort());
  });

  it('follows role changes at once', async () => {
    await t.db.kysely
      .deleteFrom('user_roles')
      .where('user_id', '=', both.id)
      .where('role_id', '=', role.Aufsichtsrat)
      .execute();
    expect(emails(await visible('event', created.arEvent!))).not.toContain(both.email);
  });

  it('answers 404 for what does not exist and for other types', async () => {
    for (const url of [
      '/api/v1/audit/visible-to/file/99999',
      '/api/v1/audit/visible-to/folder/99999',
      '/api/v1/audit/visible-to/event/99999',
      '/api/v1/audit/visible-to/user/1',
      '/api/v1/audit/visible-to/file/x',
    ]) {
      const { status, body } = await get(t, url, users.admin);
      expect(status, url).toBe(404);
      expect(body).toEqual({ message: 'Nicht gefunden.' });
    }
  });
});

describe('GET /audit/my-logins', () => {
  let t: TestApp;
  let erika: TestUser;
  let max: TestUser;
  let admin: TestUser;

  const login = (email: string, password: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password },
      remoteAddress: ip,
    });

  beforeAll(async () => {
    t = await buildTestApp();
    erika = await createUser(t, { roles: ['Vertreter'] });
    max = await createUser(t, { roles: ['Aufsichtsrat'] });
    admin = await createUser(t, { roles: ['Admin'] });
  });
  afterAll(() => t.close());

  it("shows the caller's own sign-ins and failed attempts, newest first, and nobody else's", async () => {
    expect((await login(erika.email, erika.password, '203.0.113.10')).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await login(erika.email, 'Falsches-Passwort-1', '198.51.100.66')).statusCode).toBe(401);
    t.clock.advance(60_000);
    expect((await login(max.email, max.password, '203.0.113.20')).statusCode).toBe(200);
    expect((await login(max.email, 'Falsches-Passwort-1', '203.0.113.21')).statusCode).toBe(401);
    const logout = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: erika.headers });
    expect(logout.statusCode).toBeLessThan(300);
    const relogin = await login(erika.email, erika.password, '203.0.113.10');
    const token = relogin.json().access_token as string;
    erika.headers = { authorization: `Bearer ${token}` };

    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audit/my-logins',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { at: string; action_label: string; ip: string | null }[];
    expect(data.map(({ action_label, ip }) => ({ action_label, ip }))).toEqual([
      { action_label: 'Anmeldung', ip: '203.0.113.10' },
      { action_label: 'Anmeldung fehlgeschlagen', ip: '198.51.100.66' },
      { action_label: 'Anmeldung', ip: '203.0.113.10' },
    ]);
    expect(data[0]!.at > data[1]!.at).toBe(true);
    expect(Object.keys(data[0]!).sort()).toEqual(['action', 'action_label', 'at', 'id', 'ip']);

    const maxView = (await get(t, '/api/v1/audit/my-logins', max)).body.data;
    expect(maxView.map((e: { ip: string }) => e.ip)).toEqual(['203.0.113.21', '203.0.113.20']);
    const adminView = (await get(t, '/api/v1/audit/my-logins', admin)).body.data;
    expect(adminView).toEqual([]);
  });

  it('shows at most the last 10', async () => {
    for (let i = 0; i < 12; i += 1) {
      t.clock.advance(1000);
      await record(t, t.clock.now().toISOString(), {
        actor: { id: erika.id, label: 'Erika' },
        action: 'auth.login',
        objectType: 'user',
        objectId: erika.id,
        ip: `192.0.2.${i}`,
      });
    }
    const data = (await get(t, '/api/v1/audit/my-logins', erika)).body.data as { ip: string }[];
    expect(data).toHaveLength(10);
    expect(data[0]!.ip).toBe('192.0.2.11');
    expect(data[9]!.ip).toBe('192.0.2.2');
  });
});

describe('recording happens with the change, through the real features', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Super-Admin'], firstname: 'Petra', lastname: 'Protokoll' });
  });
  afterAll(() => t.close());

  const count = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it.each([
    [
      'an invalid body',
      { title: 'Herr', firstname: 'Ab', lastname: 'Muster', email: 'kein-mail', roles: [] },
    ],
    [
      'an unknown role (refused inside the transaction)',
      {
        title: 'Herr',
        firstname: 'Max',
        lastname: 'Muster',
        email: 'neu-rolle@example.org',
        roles: ['Kaiser'],
      },
    ],
  ])('a refused user creation (%s) leaves no audit entry', async (_, payload) => {
    const before = await count();
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/user', headers: admin.headers, payload });
    expect(res.statusCode).toBe(422);
    expect(await count()).toBe(before);
  });

  it('a taken e-mail address leaves no audit entry either', async () => {
    const taken = await createUser(t, { roles: ['Vertreter'] });
    const before = await count();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: admin.headers,
      payload: {
        title: 'Frau',
        firstname: 'Doppelt',
        lastname: 'Vergeben',
        email: taken.email,
        roles: ['Vertreter'],
      },
    });
    expect(res.statusCode).toBe(422);
    expect(await count()).toBe(before);
  });

  it('a successful creation shows in the log with the admin, the new user and the address', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: admin.headers,
      remoteAddress: '203.0.113.99',
      payload: {
        title: 'Frau',
        firstname: 'Nora',
        lastname: 'Neu',
        email: 'nora.neu@example.org',
        roles: ['Vertreter'],
      },
    });
    expect(res.statusCode).toBe(201);
    const userId = res.json().user.id as number;
    const { body } = await get(t, `/api/v1/audit?object_type=user&object_id=${userId}`, admin);
    const created = body.data.find((e: AuditEntry) => e.action === 'user.created');
    expect(created).toMatchObject({
      actor_id: admin.id,
      action_label: 'Nutzer angelegt',
      object_label: 'Nora Neu <nora.neu@example.org>',
      ip: '203.0.113.99',
    });
    expect(created.actor_label).toContain('Petra Protokoll');
    expect(body.data.map((e: AuditEntry) => e.action_label)).toContain('Einladung versendet');
  });

  it('a failed sign-in is recorded with the client address but without the password', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: '198.51.100.23',
      payload: { email: 'admin@example.org', password: 'Geheim-Falsch-99' },
    });
    expect(res.statusCode).toBe(401);
    const { body } = await get(t, '/api/v1/audit?action=auth.login_failed', admin);
    expect(body.data[0]).toMatchObject({ action_label: 'Anmeldung fehlgeschlagen', ip: '198.51.100.23' });
    expect(JSON.stringify(body)).not.toContain('Geheim-Falsch-99');
  });
});
