import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES, type ImportResult } from '@gremienportal/contracts/committees';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser } from '../../support/factories.ts';
import { multipart } from '../../support/files.fixtures.ts';

/** "Mitglieder importieren": the preview and the import agree, a second run changes nothing. */
describe('member import', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let committeeId: number;
  let termId: number;

  const upload = (csv: string | Buffer, dryRun: boolean, contentType = 'text/csv') =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committeeId}/members/import?term_id=${termId}&dry_run=${dryRun}`,
      headers: { ...users.admin.headers, 'content-type': contentType },
      payload: csv,
    });

  const FILE = [
    'Anrede;Vorname;Nachname;E-Mail;Funktion;von;bis;Wahlbezirk;Rang',
    'Frau;Łucja;Wiśniewska;lucja@example.org;Vorsitz;;;;',
    'Herr;Emre;Şahin;emre@example.org;stellvertretender Vorsitz;;;;',
    'Frau;Petra;Schrift;petra@example.org;Schriftführung;;;;',
    'Herr;Max;Eins;max@example.org;Mitglied;01.07.2026;;;',
    ';Kim;Zwei;kim@example.org;Mitglied;;;;',
    'Frau;Anna;Ersatz;anna@example.org;Ersatzmitglied;;;;1',
    'Herr;Bernd;Ersatz;bernd@example.org;Ersatzmitglied;;;;2',
  ].join('\r\n');

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    await createUser(t, { email: 'max@example.org', firstname: 'Max', lastname: 'Eins' });
    committeeId = (
      await t.db.kysely
        .selectFrom('committees')
        .select('id')
        .where('name', '=', 'Aufsichtsrat')
        .executeTakeFirstOrThrow()
    ).id;
    const term = await t.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committeeId}/terms`,
      headers: users.admin.headers,
      payload: { start: '2026-07-01', end: '2030-06-30' },
    });
    termId = term.json().data.id;
  });
  afterAll(() => t?.close());

  it('shows the plan first, writes nothing, and then writes exactly that plan once', async () => {
    const preview = await upload(FILE, true);
    expect(preview.statusCode, preview.body).toBe(200);
    const planned = preview.json() as ImportResult;
    expect(planned.counts).toEqual({
      new_accounts: 6,
      new_memberships: 7,
      changed: 0,
      unchanged: 0,
      errors: 0,
    });
    expect(planned.rows.find((row) => row.email === 'max@example.org')?.action).toBe('new_membership');
    expect(await t.db.kysely.selectFrom('committee_memberships').select('id').execute()).toEqual([]);

    const done = await upload(FILE, false);
    expect(done.statusCode, done.body).toBe(200);
    expect({ ...(done.json() as ImportResult), dry_run: true }).toEqual(planned);
    const members = await t.db.kysely.selectFrom('committee_memberships').selectAll().execute();
    expect(members).toHaveLength(7);
    const invited = (await t.flushMail()).filter((mail) => mail.subject === 'Einladung zum Gremienportal');
    expect(invited.map((mail) => mail.to).sort()).toEqual(
      ['anna', 'bernd', 'emre', 'kim', 'lucja', 'petra'].map((name) => `${name}@example.org`),
    );
    const lucja = await t.db.kysely
      .selectFrom('users')
      .select(['firstname', 'lastname', 'title'])
      .where('email', '=', 'lucja@example.org')
      .executeTakeFirstOrThrow();
    expect(lucja).toEqual({ firstname: 'Łucja', lastname: 'Wiśniewska', title: 'Frau' });

    const again = await upload(FILE, false);
    expect((again.json() as ImportResult).counts).toEqual({
      new_accounts: 0,
      new_memberships: 0,
      changed: 0,
      unchanged: 7,
      errors: 0,
    });
    expect(await t.db.kysely.selectFrom('committee_memberships').select('id').execute()).toHaveLength(7);
    const imports = await t.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'membership.imported')
      .execute();
    expect(imports).toHaveLength(1);
  });

  it('reports bad rows with their line and refuses to import while any is bad', async () => {
    const bad = [
      'Vorname,Nachname,E-Mail,Funktion,von',
      'Max,Eins,max@example.org,Mitglied,',
      'Zweiter,Vorsitz,neu@example.org,Vorsitz,',
      'Ohne,Post,keine-adresse,Mitglied,',
      'Früh,Dran,frueh@example.org,Mitglied,01.01.2020',
      'Unbe,Kannt,unbekannt@example.org,Kassenwart,',
    ].join('\n');
    const preview = (await upload(bad, true)).json() as ImportResult;
    const byRow = new Map(preview.rows.map((row) => [row.row, row]));
    expect(byRow.get(2)?.action).toBe('unchanged');
    expect(byRow.get(3)).toMatchObject({
      action: 'error',
      messages: ['In diesem Zeitraum hat das Gremium bereits einen Vorsitz.'],
    });
    expect(byRow.get(4)).toMatchObject({ action: 'error', messages: [IMPORT_MESSAGES.invalidEmail] });
    expect(byRow.get(5)?.messages).toEqual([IMPORT_MESSAGES.outsideTerm]);
    expect(byRow.get(6)?.messages).toEqual([IMPORT_MESSAGES.unknownFunction('Kassenwart')]);
    expect(preview.counts.errors).toBe(4);
    const refused = await upload(bad, false);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(IMPORT_MESSAGES.hasErrors);
  });

  it('reads Windows-1252 and answers a file without the needed columns with a German message', async () => {
    const latin = Buffer.from(
      'Vorname;Nachname;E-Mail;Funktion\nJürgen;Müller;juergen@example.org;Mitglied\n',
      'latin1',
    );
    const preview = (await upload(latin, true)).json() as ImportResult;
    expect(preview.rows[0]).toMatchObject({ name: 'Jürgen Müller', action: 'new_account' });
    const missing = await upload('Name;Mail\nA;b@example.org\n', true);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe(
      IMPORT_MESSAGES.missingColumns(['Vorname', 'Nachname', 'E-Mail', 'Funktion']),
    );
    const json = await upload(JSON.stringify({ a: 1 }), true, 'application/json');
    expect(json.statusCode).toBe(415);
  });

  it('takes the file from a form as well, and refuses a form without one in German', async () => {
    const form = multipart([], { filename: 'mitglieder.csv', type: 'text/csv', content: FILE });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committeeId}/members/import?term_id=${termId}&dry_run=true`,
      headers: { ...users.admin.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as ImportResult).counts.unchanged).toBe(7);
    const empty = multipart([['titel', 'ohne Datei']]);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committeeId}/members/import?term_id=${termId}`,
      headers: { ...users.admin.headers, ...empty.headers },
      payload: empty.payload,
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.json().message).toBe('Bitte senden Sie die Mitgliederliste als CSV-Datei.');
  });

  it('is for admins only', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committeeId}/members/import?term_id=${termId}`,
      headers: { ...users.aufsichtsrat.headers, 'content-type': 'text/csv' },
      payload: FILE,
    });
    expect(res.statusCode).toBe(403);
  });
});
