import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACKNOWLEDGEMENT_CSV_HEADER,
  ACKNOWLEDGEMENT_MESSAGES,
  acknowledgementListResponseSchema,
  type AcknowledgementList,
} from '@gremienportal/contracts/acknowledgements';
import { HOUR } from '../../../src/clock.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { formulaCells, parseCsv } from '../../support/csv.ts';
import { createUser, roleIds, sessionFor, type TestUser } from '../../support/factories.ts';
import { createFolder, dataUrl, multipart, pdfBytes } from '../../support/files.fixtures.ts';

describe('Kenntnisnahme', () => {
  let t: TestApp;
  let admin: TestUser;
  let zander: TestUser;
  let albers: TestUser;
  let aufsichtsrat: TestUser;
  let folder: { id: number };
  let doc: {
    id: number;
    external: string;
    acknowledgement_required: boolean;
    acknowledgement_due: string | null;
  };

  const list = async (id = doc.id): Promise<AcknowledgementList> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/files/${id}/acknowledgements`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return acknowledgementListResponseSchema.parse(res.json()).data;
  };
  const confirm = (user: TestUser, id = doc.id) =>
    t.app.inject({ method: 'POST', url: `/api/v1/files/${id}/acknowledgement`, headers: user.headers });
  const open = (user: TestUser, external = doc.external) =>
    t.app.inject({ method: 'GET', url: `/api/v1/download/${external}`, headers: user.headers });
  /** A new session: the test clock runs past the idle limit of the earlier ones. */
  const fresh = async (user: TestUser) => {
    user.headers = { authorization: `Bearer ${await sessionFor(t, user.id)}` };
  };
  const remind = async () => {
    await fresh(admin);
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/files/${doc.id}/acknowledgements/reminder`,
      headers: admin.headers,
    });
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'], lastname: 'Adler' });
    zander = await createUser(t, { roles: ['Vertreter'], lastname: 'Zander' });
    albers = await createUser(t, { roles: ['Vertreter'], lastname: 'Albers' });
    aufsichtsrat = await createUser(t, { roles: ['Aufsichtsrat'], lastname: 'Aufsicht' });
    folder = await createFolder(t, admin, { title: 'Versammlung', roles: ['Vertreter', 'Aufsichtsrat'] });
    t.clock.advance(1000);
  });
  afterAll(() => t.close());

  it('takes the fields in the multipart reading and answers them', async () => {
    const body = multipart(
      [
        ['title', 'Einladung'],
        ['permissions', 'Vertreter'],
        ['folder_id', String(folder.id)],
        ['acknowledgement_required', 'true'],
        ['acknowledgement_due', '2026-12-10'],
      ],
      { filename: 'Einladung.pdf', type: 'application/pdf', content: pdfBytes('Einladung') },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    doc = res.json().file;
    expect(doc).toMatchObject({
      acknowledgement_required: true,
      acknowledgement_due: '2026-12-10',
      acknowledged_at: null,
    });
  });

  it('takes the fields in the JSON reading and refuses bad ones in German', async () => {
    const payload = {
      title: 'Bericht',
      roles: ['Vertreter'],
      folders: [folder.id],
      data: dataUrl(pdfBytes('Bericht')),
      acknowledgement_required: true,
    };
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/files', headers: admin.headers, payload });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().file.acknowledgement_required).toBe(true);
    for (const [field, value, message] of [
      ['acknowledgement_due', '2026-02-30', ACKNOWLEDGEMENT_MESSAGES.dueInvalid],
      ['acknowledgement_required', 'vielleicht', ACKNOWLEDGEMENT_MESSAGES.requiredInvalid],
    ] as const) {
      const bad = await t.app.inject({
        method: 'POST',
        url: '/api/v1/files',
        headers: admin.headers,
        payload: { ...payload, [field]: value },
      });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors[field]).toContain(message);
    }
    const dueOnly = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/files/${ok.json().file.id}`,
      headers: admin.headers,
      payload: { acknowledgement_required: false, acknowledgement_due: '2026-12-01' },
    });
    expect(dueOnly.statusCode).toBe(422);
    expect(dueOnly.json().errors.acknowledgement_due).toEqual([ACKNOWLEDGEMENT_MESSAGES.dueWithoutRequired]);
  });

  it('lets a member confirm only after opening the document, once, audited', async () => {
    const early = await confirm(zander);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(ACKNOWLEDGEMENT_MESSAGES.openFirst);
    expect((await open(zander)).statusCode).toBe(200);
    t.clock.advance(1000);
    const res = await confirm(zander);
    expect(res.statusCode, res.body).toBe(200);
    const again = await confirm(zander);
    expect(again.json().data.confirmed_at).toBe(res.json().data.confirmed_at);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'file.acknowledged')
      .execute();
    expect(audit).toHaveLength(1);
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/v1/files/${doc.id}`,
      headers: zander.headers,
    });
    expect(mine.json().data.acknowledged_at).toBe(res.json().data.confirmed_at);
    // A member who cannot see the document gets the 404 of a missing one.
    expect((await confirm(aufsichtsrat)).statusCode).toBe(404);
  });

  it('lists everyone who can see the document, following role changes', async () => {
    let result = await list();
    expect(result.entries.map((entry) => entry.user.lastname)).toEqual(['Zander', 'Albers']);
    expect(result.counts).toEqual({ confirmed: 1, pending: 1, total: 2 });
    expect(result.percent).toBe(50);
    const [vertreterRole] = await roleIds(t, ['Vertreter']);
    await t.db.kysely
      .insertInto('user_roles')
      .values({ user_id: aufsichtsrat.id, role_id: vertreterRole! })
      .execute();
    result = await list();
    expect(result.counts.total).toBe(3);
    await t.db.kysely.deleteFrom('user_roles').where('user_id', '=', albers.id).execute();
    result = await list();
    expect(result.entries.map((entry) => entry.user.lastname)).toEqual(['Zander', 'Aufsicht']);

    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v1/files/${doc.id}/acknowledgements.csv`,
      headers: admin.headers,
    });
    expect(csv.statusCode).toBe(200);
    const rows = parseCsv(csv.body.replace(/^\uFEFF/, ''), ';');
    expect(rows[0]).toEqual([...ACKNOWLEDGEMENT_CSV_HEADER]);
    expect(rows.slice(1).map((row) => row[4])).toEqual(['Bestätigt', 'Offen']);
    expect(formulaCells(rows)).toEqual([]);
    const member = await t.app.inject({
      method: 'GET',
      url: `/api/v1/files/${doc.id}/acknowledgements`,
      headers: zander.headers,
    });
    expect(member.statusCode).toBe(403);
  });

  it('reminds the pending at most once a day and says when the next is possible', async () => {
    const first = await remind();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ message: ACKNOWLEDGEMENT_MESSAGES.reminderSent(1), sent: 1 });
    const sent = await t.flushMail();
    expect(sent.at(-1)!.text).toContain('/account');
    t.clock.advance(23 * HOUR);
    const second = await remind();
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/Die nächste ist ab \d\d\.\d\d\.\d{4} \d\d:\d\d Uhr möglich\./);
    t.clock.advance(HOUR);
    expect((await remind()).statusCode).toBe(200);
  });

  it('asks again after a replacement unless the admin says no', async () => {
    const replace = async (reset?: string) => {
      const body = multipart(reset === undefined ? [] : [['acknowledgement_reset', reset]], {
        filename: 'Einladung.pdf',
        type: 'application/pdf',
        content: pdfBytes(`neu ${Math.random()}`),
      });
      t.clock.advance(1000);
      await fresh(admin);
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/files/${doc.id}`,
        headers: { ...admin.headers, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await replace('false');
    expect((await list()).counts.confirmed).toBe(1);
    await replace();
    expect((await list()).counts.confirmed).toBe(0);
  });

  it('keeps confirmations and reads through the Papierkorb', async () => {
    await fresh(admin);
    await fresh(zander);
    expect((await open(zander)).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await confirm(zander)).statusCode).toBe(200);
    const before = await list();
    expect(before.counts.confirmed).toBe(1);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/files/${doc.id}`,
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect(await t.db.kysely.selectFrom('acknowledgements').selectAll().execute()).toEqual([]);
    const restored = await t.app.inject({
      method: 'POST',
      url: `/api/v1/trash/file/${doc.id}/restore`,
      headers: admin.headers,
      payload: {},
    });
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await list()).entries).toEqual(before.entries);
    const mine = await t.app.inject({
      method: 'GET',
      url: `/api/v1/files/${doc.id}`,
      headers: zander.headers,
    });
    expect(mine.json().data).toMatchObject({ new: false, acknowledged_at: before.entries[0]!.confirmed_at });
  });
});
