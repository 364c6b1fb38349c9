// Over 300 lines: the agenda's round trip, visibility, Papierkorb and validation cases share one test app
// with its documents of every visibility and the helpers that read and write the agenda.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { msg } from '@gremienportal/contracts/common';
import { AGENDA_LIMITS, MEETING_MESSAGES, type AgendaItem } from '@gremienportal/contracts/meetings';
import { HOUR } from '../../../src/clock.ts';
import { visibleAgenda } from '../../../src/features/meetings/agenda.service.ts';
import { viewerOf } from '../../../src/policies/principal.ts';
import { referencedObjects } from '../../../src/db/referenced-objects.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, roleIds, type TestUser } from '../../support/factories.ts';
import { uploadFile } from '../../support/files.fixtures.ts';

/** /Aufsichtsrat (2), /Mitgliedervertreter (3), /Allgemein (4), as the seed creates them. */
const FOLDER = { ar: 2, vt: 3, both: 4 } as const;

describe('agenda of an event (Tagesordnung)', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let docs: Record<'both' | 'ar' | 'vt' | 'vtInAr', { id: number; title: string; external: string }>;
  let eventId: number;

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, user?: TestUser, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: user?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const getAgenda = async (user: TestUser, id = eventId) => {
    const res = await call('GET', `/api/v1/events/${id}/agenda`, user);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as AgendaItem[];
  };
  const putAgenda = (items: unknown[], user: TestUser = users.admin, id = eventId) =>
    call('PUT', `/api/v1/events/${id}/agenda`, user, { items });
  const createEvent = async (roles: string[], title = 'Aufsichtsratssitzung') => {
    const res = await call('POST', '/api/v1/events', users.admin, {
      title,
      roles,
      start: '2027-03-10T18:00',
      end: '2027-03-10T20:00',
      location: 'Sitzungssaal',
      description: 'Ordentliche Sitzung',
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event.id as number;
  };
  const fileIdsOf = (item: AgendaItem | undefined) => item?.files.map((file) => file.id);
  const agendaRows = async (id = eventId) =>
    t.db.kysely.selectFrom('agenda_items').selectAll().where('event_id', '=', id).orderBy('id').execute();

  /** 1 (both, ar), 2 with 2.1 (vt) and 2.2 (vtInAr, both), 3. */
  const standardAgenda = () => [
    {
      title: '  Begrüßung  ',
      presenter: 'Vorsitzende',
      file_ids: [docs.both.id, docs.ar.id],
    },
    {
      title: 'Berichte',
      description: 'Aus den Ausschüssen',
      children: [
        { title: 'Bericht des Vorstands', file_ids: [docs.vt.id] },
        { title: 'Bericht der Prüfung', file_ids: [docs.vtInAr.id, docs.both.id] },
      ],
    },
    { title: 'Verschiedenes' },
  ];

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    const upload = (title: string, folderId: number, roles: string[]) =>
      uploadFile(t, users.admin, { title, folderId, roles });
    docs = {
      both: await upload('Einladung', FOLDER.both, ['Aufsichtsrat', 'Vertreter']),
      ar: await upload('Prüfbericht vertraulich', FOLDER.ar, ['Aufsichtsrat']),
      vt: await upload('Vorstandsbericht', FOLDER.vt, ['Vertreter']),
      // The role Vertreter, but in a folder only the Aufsichtsrat sees: hidden from Vertreter.
      vtInAr: await upload('Anlage im AR-Ordner', FOLDER.ar, ['Aufsichtsrat', 'Vertreter']),
    };
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    eventId = await createEvent(['Aufsichtsrat', 'Vertreter']);
  });

  it('saves items and sub-items in order and reads them back numbered 1, 2, 2.1, 2.2, 3', async () => {
    const res = await putAgenda(standardAgenda());
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json().data as AgendaItem[];
    expect(saved.map((item) => [item.number, item.position, item.title])).toEqual([
      ['1', 0, 'Begrüßung'],
      ['2', 1, 'Berichte'],
      ['2.1', 2, 'Bericht des Vorstands'],
      ['2.2', 3, 'Bericht der Prüfung'],
      ['3', 4, 'Verschiedenes'],
    ]);
    const [first, second, sub1, sub2, third] = saved;
    expect([first, second, third].map((item) => item!.parent_id)).toEqual([null, null, null]);
    expect([sub1!.parent_id, sub2!.parent_id]).toEqual([second!.id, second!.id]);
    expect(first).toMatchObject({ description: '', presenter: 'Vorsitzende' });
    expect(second).toMatchObject({ description: 'Aus den Ausschüssen', presenter: '' });
    expect(saved.map(fileIdsOf)).toEqual([
      [docs.both.id, docs.ar.id],
      [],
      [docs.vt.id],
      [docs.vtInAr.id, docs.both.id],
      [],
    ]);
    expect(first!.files[0]).toMatchObject({
      title: 'Einladung',
      format: 'pdf',
      mime_type: 'application/pdf',
      external: docs.both.external,
    });
    expect(first!.files[0]!.size_bytes).toBeGreaterThan(0);
    // What GET answers is what PUT answered.
    expect(await getAgenda(users.admin)).toEqual(saved);
  });

  it('reorders by a second PUT, replacing the items, and counts them on the event', async () => {
    await putAgenda(standardAgenda());
    const before = await agendaRows();
    t.clock.advance(HOUR);
    const updatedBefore = (await call('GET', `/api/v1/events/${eventId}`, users.admin)).json().data
      .updated_at;
    const [welcome, reports, misc] = standardAgenda();
    const res = await putAgenda([
      misc,
      { ...reports, children: [...reports!.children!].reverse() },
      { ...welcome, file_ids: [docs.ar.id, docs.both.id] },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const agenda = await getAgenda(users.admin);
    expect(agenda.map((item) => `${item.number} ${item.title}`)).toEqual([
      '1 Verschiedenes',
      '2 Berichte',
      '2.1 Bericht der Prüfung',
      '2.2 Bericht des Vorstands',
      '3 Begrüßung',
    ]);
    expect(fileIdsOf(agenda[4])).toEqual([docs.ar.id, docs.both.id]);
    // Replaced, not added to: five rows, none of the old ones.
    const after = await agendaRows();
    expect(after).toHaveLength(5);
    expect(after.filter((row) => before.some((old) => old.id === row.id))).toEqual([]);
    // Sub-items keep positions among their siblings.
    expect(after.filter((row) => row.parent_id !== null).map((row) => row.position)).toEqual([0, 1]);

    const event = (await call('GET', `/api/v1/events/${eventId}`, users.vertreter)).json().data;
    expect(event.agenda_count).toBe(5);
    expect(event.updated_at > updatedBefore).toBe(true);
    const list = (await call('GET', '/api/v1/events', users.vertreter)).json().data as {
      id: number;
      agenda_count: number;
    }[];
    expect(list.find((item) => item.id === eventId)?.agenda_count).toBe(5);

    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'object_id', 'details', 'actor_id'])
      .where('action', '=', 'event.agenda_updated')
      .where('object_id', '=', eventId)
      .orderBy('id')
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[1]!.actor_id).toBe(users.admin.id);
    expect(JSON.parse(audit[1]!.details!)).toEqual({
      items: 3,
      sub_items: 2,
      documents: 5,
      previous_items: 5,
    });

    // An empty list clears the agenda.
    expect((await putAgenda([])).json().data).toEqual([]);
    expect(await agendaRows()).toEqual([]);
    expect((await call('GET', `/api/v1/events/${eventId}`, users.admin)).json().data.agenda_count).toBe(0);
  });

  it('shows each member only the documents they may see; admins learn which roles miss one', async () => {
    await putAgenda(standardAgenda());
    const vertreter = await getAgenda(users.vertreter);
    const aufsichtsrat = await getAgenda(users.aufsichtsrat);
    const admin = await getAgenda(users.admin);

    // Same items for everybody; only the documents differ.
    expect(vertreter.map((item) => item.number)).toEqual(admin.map((item) => item.number));
    expect(fileIdsOf(vertreter[0])).toEqual([docs.both.id]);
    expect(fileIdsOf(aufsichtsrat[0])).toEqual([docs.both.id, docs.ar.id]);
    expect(fileIdsOf(admin[0])).toEqual([docs.both.id, docs.ar.id]);
    expect(fileIdsOf(vertreter[2])).toEqual([docs.vt.id]);
    expect(fileIdsOf(aufsichtsrat[2])).toEqual([]);
    expect(fileIdsOf(vertreter[3])).toEqual([docs.both.id]);
    expect(fileIdsOf(aufsichtsrat[3])).toEqual([docs.vtInAr.id, docs.both.id]);

    const res = await call('GET', `/api/v1/events/${eventId}/agenda`, users.vertreter);
    for (const hidden of [docs.ar, docs.vtInAr]) {
      expect(res.body).not.toContain(hidden.title);
      expect(res.body).not.toContain(hidden.external);
    }
    // Members are not told who else sees what.
    expect(vertreter.flatMap((item) => item.files).some((file) => 'unseen_by' in file)).toBe(false);

    const unseen = Object.fromEntries(admin.flatMap((item) => item.files).map((f) => [f.id, f.unseen_by]));
    expect(unseen).toEqual({
      [docs.both.id]: [],
      [docs.ar.id]: ['Vertreter'],
      [docs.vt.id]: ['Aufsichtsrat'],
      // Shares the role, but its folder is hidden from Vertreter.
      [docs.vtInAr.id]: ['Vertreter'],
    });
  });

  it('offers the same visibility to other features through visibleAgenda', async () => {
    await putAgenda(standardAgenda());
    const [vertreterRoles, adminRoles] = [await roleIds(t, ['Vertreter']), await roleIds(t, ['Admin'])];
    const asVertreter = await visibleAgenda(
      t.app.context,
      viewerOf({ isAdmin: false, roleIds: vertreterRoles }),
      eventId,
    );
    const asAdmin = await visibleAgenda(
      t.app.context,
      viewerOf({ isAdmin: true, roleIds: adminRoles }),
      eventId,
    );
    expect(asVertreter.map((entry) => entry.number)).toEqual(['1', '2', '2.1', '2.2', '3']);
    expect(asVertreter[0]!.documents.map((doc) => doc.id)).toEqual([docs.both.id]);
    expect(asAdmin[0]!.documents.map((doc) => doc.id)).toEqual([docs.both.id, docs.ar.id]);
    const stored = await t.db.kysely
      .selectFrom('files')
      .select(['storage_key', 'download_key'])
      .where('id', '=', docs.both.id)
      .executeTakeFirstOrThrow();
    expect(asVertreter[0]!.documents[0]).toMatchObject({
      title: 'Einladung',
      format: 'pdf',
      mime_type: 'application/pdf',
      storage_key: stored.storage_key,
      download_key: stored.download_key,
    });
  });

  it('answers a hidden event like a missing one', async () => {
    const arOnly = await createEvent(['Aufsichtsrat'], 'Geheime Klausur');
    expect(
      (await putAgenda([{ title: 'Strategie', file_ids: [docs.ar.id] }], users.admin, arOnly)).statusCode,
    ).toBe(200);
    const hidden = await call('GET', `/api/v1/events/${arOnly}/agenda`, users.vertreter);
    const missing = await call('GET', '/api/v1/events/2147483000/agenda', users.vertreter);
    expect(hidden.statusCode).toBe(404);
    expect({ status: hidden.statusCode, body: hidden.body }).toEqual({
      status: missing.statusCode,
      body: missing.body,
    });
    expect(hidden.body).not.toContain('Strategie');
    expect((await call('GET', `/api/v1/events/${arOnly}/agenda`)).statusCode).toBe(401);
  });

  it('leaves out a document in the Papierkorb and shows it again once restored', async () => {
    const extra = await uploadFile(t, users.admin, {
      title: 'Beschlussvorlage',
      folderId: FOLDER.both,
      roles: ['Aufsichtsrat', 'Vertreter'],
    });
    await putAgenda([{ title: 'Beschlüsse', file_ids: [docs.both.id, extra.id, docs.vt.id] }]);
    expect((await call('DELETE', `/api/v1/files/${extra.id}`, users.admin)).statusCode).toBe(204);
    for (const user of [users.admin, users.vertreter]) {
      expect(fileIdsOf((await getAgenda(user))[0])).toEqual([docs.both.id, docs.vt.id]);
    }
    const restored = await call('POST', `/api/v1/trash/file/${extra.id}/restore`, users.admin, {});
    expect(restored.statusCode, restored.body).toBe(200);
    expect(fileIdsOf((await getAgenda(users.vertreter))[0])).toEqual([docs.both.id, extra.id, docs.vt.id]);
  });

  it('keeps the agenda, the answers and the Protokoll of an event that goes to the Papierkorb and back', async () => {
    await putAgenda(standardAgenda());
    const before = await getAgenda(users.admin);
    const leaving = await createUser(t, { roles: ['Vertreter'] });
    const answer = (userId: number, status: 'zugesagt' | 'abgesagt') => ({
      event_id: eventId,
      user_id: userId,
      status,
      comment: 'Gern',
      answered_at: t.clock.now().toISOString(),
    });
    await t.db.kysely
      .insertInto('event_attendance')
      .values([answer(users.vertreter.id, 'zugesagt'), answer(leaving.id, 'abgesagt')])
      .execute();
    // A published Protokoll: its stored object stays held while the meeting is in the Papierkorb.
    const minutes = await t.app.context.storage.put(Readable.from([Buffer.from('%PDF-1.4 Protokoll')]), {
      maxBytes: 1024,
    });
    await t.db.kysely
      .updateTable('events')
      .set({
        minutes_storage_key: minutes.key,
        minutes_download_key: `protokoll${eventId}`,
        minutes_format: 'pdf',
        minutes_mime_type: 'application/pdf',
        minutes_size_bytes: minutes.size,
        minutes_sha256: minutes.sha256,
        minutes_published_at: t.clock.now().toISOString(),
      })
      .where('id', '=', eventId)
      .execute();

    expect((await call('DELETE', `/api/v1/events/${eventId}`, users.admin)).statusCode).toBe(204);
    expect((await call('GET', `/api/v1/events/${eventId}/agenda`, users.admin)).statusCode).toBe(404);
    expect(await agendaRows()).toEqual([]);
    expect(await referencedObjects(t.db.kysely)).toContain(minutes.key);
    // An account deleted meanwhile leaves its answer behind; the restore still succeeds.
    expect((await call('DELETE', `/api/v1/user/${leaving.id}`, users.admin)).statusCode).toBe(204);

    const restored = await call('POST', `/api/v1/trash/event/${eventId}/restore`, users.admin, {});
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await getAgenda(users.admin)).toEqual(before);
    const answers = await t.db.kysely
      .selectFrom('event_attendance')
      .select(['user_id', 'status', 'comment'])
      .where('event_id', '=', eventId)
      .execute();
    expect(answers).toEqual([{ user_id: users.vertreter.id, status: 'zugesagt', comment: 'Gern' }]);
    const event = await t.db.kysely
      .selectFrom('events')
      .select(['minutes_storage_key', 'minutes_sha256'])
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(event).toEqual({ minutes_storage_key: minutes.key, minutes_sha256: minutes.sha256 });
  });

  it('restores an event whose Papierkorb snapshot predates agendas', async () => {
    await putAgenda(standardAgenda());
    expect((await call('DELETE', `/api/v1/events/${eventId}`, users.admin)).statusCode).toBe(204);
    const item = await t.db.kysely
      .selectFrom('trash_items')
      .select(['id', 'snapshot'])
      .where('kind', '=', 'event')
      .where('object_id', '=', eventId)
      .executeTakeFirstOrThrow();
    const {
      agenda_items: _items,
      agenda_item_files: _links,
      attendance: _answers,
      ...old
    } = JSON.parse(item.snapshot) as Record<string, unknown>;
    expect(Object.keys(old).sort()).toEqual(['events', 'files', 'folders', 'versions']);
    await t.db.kysely
      .updateTable('trash_items')
      .set({ snapshot: JSON.stringify(old) })
      .where('id', '=', item.id)
      .execute();

    const restored = await call('POST', `/api/v1/trash/event/${eventId}/restore`, users.admin, {});
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await getAgenda(users.admin)).toEqual([]);
  });

  it('refuses unknown documents and documents in the Papierkorb under their field, changing nothing', async () => {
    await putAgenda(standardAgenda());
    const before = await getAgenda(users.admin);
    const binned = await uploadFile(t, users.admin, {
      title: 'Entwurf',
      folderId: FOLDER.both,
      roles: ['Vertreter'],
    });
    expect((await call('DELETE', `/api/v1/files/${binned.id}`, users.admin)).statusCode).toBe(204);

    const res = await putAgenda([
      { title: 'Eins', file_ids: [docs.both.id] },
      {
        title: 'Zwei',
        file_ids: [2_147_483_000],
        children: [{ title: 'Zwei a', file_ids: [docs.vt.id, binned.id] }],
      },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: MEETING_MESSAGES.unknownFile,
      errors: {
        'items.1.file_ids': [MEETING_MESSAGES.unknownFile],
        'items.1.children.0.file_ids': [MEETING_MESSAGES.unknownFile],
      },
    });
    expect(await getAgenda(users.admin)).toEqual(before);
  });

  it('checks the body with German messages per field', async () => {
    const errorsOf = async (items: unknown) => {
      const res = await call('PUT', `/api/v1/events/${eventId}/agenda`, users.admin, { items });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toBe('Die Eingaben sind ungültig.');
      return res.json().errors as Record<string, string[]>;
    };
    expect(await errorsOf([{ title: '   ' }])).toEqual({ 'items.0.title': [msg.required('Titel')] });
    expect(await errorsOf([{ title: 'A', file_ids: [docs.both.id, docs.both.id] }])).toEqual({
      'items.0.file_ids': [MEETING_MESSAGES.duplicateFile],
    });
    expect(
      await errorsOf([{ title: 'A', children: [{ title: 'A.1', children: [{ title: 'A.1.1' }] }] }]),
    ).toEqual({ 'items.0.children.0.children': [MEETING_MESSAGES.tooDeep] });
    const tooMany = Array.from({ length: AGENDA_LIMITS.items + 1 }, (_, i) => ({ title: `Punkt ${i + 1}` }));
    expect(await errorsOf(tooMany)).toEqual({ items: [MEETING_MESSAGES.agendaTooLong] });
    expect(
      await errorsOf([
        { title: 'A', file_ids: Array.from({ length: AGENDA_LIMITS.filesPerItem + 1 }, (_, i) => i + 1) },
      ]),
    ).toEqual({ 'items.0.file_ids': [MEETING_MESSAGES.tooManyFiles] });
    const description = await errorsOf([
      { title: 'A', description: 'x'.repeat(AGENDA_LIMITS.description + 1) },
    ]);
    expect(description).toEqual({
      'items.0.description': [msg.max('Beschreibung', AGENDA_LIMITS.description)],
    });
    const wrongType = await errorsOf('keine Liste');
    expect(Object.keys(wrongType)).toEqual(['items']);
    expect((await call('PUT', `/api/v1/events/${eventId}/agenda`, users.admin, [])).statusCode).toBe(400);
    expect(await agendaRows()).toEqual([]);
  });

  it('lets only admins change the agenda: members 403, unknown event 404', async () => {
    const items = [{ title: 'Versuch' }];
    for (const member of [users.vertreter, users.aufsichtsrat]) {
      const res = await putAgenda(items, member);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Dafür fehlt Ihnen die Berechtigung.');
      expect(
        (await call('POST', `/api/v1/events/${eventId}/agenda/check`, member, { file_ids: [docs.ar.id] }))
          .statusCode,
      ).toBe(403);
    }
    expect((await call('PUT', `/api/v1/events/${eventId}/agenda`, undefined, { items })).statusCode).toBe(
      401,
    );
    expect((await putAgenda(items, users.admin, 2_147_483_000)).statusCode).toBe(404);
    expect((await putAgenda(items, users.superAdmin)).statusCode).toBe(200);
    expect(await agendaRows()).toHaveLength(1);
  });

  it("tells which of the event's roles would not see documents being picked", async () => {
    const check = (fileIds: unknown, id = eventId) =>
      call('POST', `/api/v1/events/${id}/agenda/check`, users.admin, { file_ids: fileIds });
    const res = await check([docs.ar.id, docs.vt.id, docs.both.id, docs.vtInAr.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      { file_id: docs.ar.id, title: docs.ar.title, unseen_by: ['Vertreter'] },
      { file_id: docs.vt.id, title: docs.vt.title, unseen_by: ['Aufsichtsrat'] },
      { file_id: docs.both.id, title: docs.both.title, unseen_by: [] },
      { file_id: docs.vtInAr.id, title: docs.vtInAr.title, unseen_by: ['Vertreter'] },
    ]);
    // Only the event's own roles count.
    const vtOnly = await createEvent(['Vertreter'], 'Vertreterversammlung');
    expect((await check([docs.vt.id, docs.ar.id], vtOnly)).json().data).toEqual([
      { file_id: docs.vt.id, title: docs.vt.title, unseen_by: [] },
      { file_id: docs.ar.id, title: docs.ar.title, unseen_by: ['Vertreter'] },
    ]);

    const unknown = await check([docs.vt.id, 2_147_483_000]);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ file_ids: [MEETING_MESSAGES.unknownFile] });
    const empty = await check([]);
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors)).toEqual(['file_ids']);
    expect((await check([docs.vt.id], 2_147_483_000)).statusCode).toBe(404);
  });
});
