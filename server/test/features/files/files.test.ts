// Over 300 lines: the document routes (upload both ways, replace, update, delete, roles, OpenAPI) share one
// test app, the upload fixtures and the FailingWrites plugin that fakes a crash before the commit.
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { chooseNotifications, createRoleUsers, roleIds, type TestUser } from '../../support/factories.ts';
import {
  createFolder,
  dataUrl,
  fileRowCount,
  multipart,
  pdfBytes,
  storedObjects,
  uploadFile,
} from '../../support/files.fixtures.ts';

/** Makes every INSERT or UPDATE of one table fail, as a crash between storage and commit would. */
class FailingWrites implements KyselyPlugin {
  constructor(
    private readonly kind: 'InsertQueryNode' | 'UpdateQueryNode',
    private readonly table: string,
  ) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node as { kind: string; into?: unknown; table?: unknown };
    const target = JSON.stringify(node.kind === 'InsertQueryNode' ? node.into : node.table);
    if (node.kind === this.kind && target?.includes(`"name":"${this.table}"`)) {
      throw new Error('Simulierter Absturz der Datenbank');
    }
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

async function withPlugin<T>(t: TestApp, plugin: KyselyPlugin, work: () => Promise<T>): Promise<T> {
  const original = t.db.kysely;
  t.db.kysely = original.withPlugin(plugin);
  try {
    return await work();
  } finally {
    t.db.kysely = original;
  }
}

describe('files', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let admin: TestUser;
  let folder: { id: number; breadcrumb: string };
  let vertreterId: number;
  let aufsichtsratId: number;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    // The single mails about a document are tested here; digests in the notifications tests.
    await chooseNotifications(t, Object.values(users), { files: 'sofort' });
    admin = users.admin;
    folder = await createFolder(t, admin, { folder_id: 4, title: 'Dokumente' });
    [vertreterId, aufsichtsratId] = (await roleIds(t, ['Vertreter', 'Aufsichtsrat'])) as [number, number];
  });
  afterAll(() => t.close());

  const download = (key: string, user: TestUser = admin) =>
    t.app.inject({ method: 'GET', url: `/api/v1/download/${key}`, headers: user.headers });
  const postFiles = (
    headers: Record<string, string>,
    payload: Buffer | Record<string, unknown>,
    user = admin,
  ) =>
    t.app.inject({ method: 'POST', url: '/api/v1/files', headers: { ...user.headers, ...headers }, payload });

  it('uploads multipart/form-data streamed to storage and answers 201 { file }', async () => {
    const content = pdfBytes('Jahresbericht');
    const body = multipart(
      [
        ['title', 'Jahresbericht 2026'],
        ['permissions', String(vertreterId)],
        ['permissions', 'Aufsichtsrat'],
        ['folder_id', String(folder.id)],
      ],
      { filename: 'Bericht.PDF', type: 'application/pdf', content },
    );
    const res = await postFiles(body.headers, body.payload);
    expect(res.statusCode, res.body).toBe(201);
    const { file } = res.json();
    expect(file).toMatchObject({
      type: 'file',
      title: 'Jahresbericht 2026',
      format: 'pdf',
      mime_type: 'application/pdf',
      roles: ['Aufsichtsrat', 'Vertreter'],
      roles_string: 'Aufsichtsrat, Vertreter',
      folder: { id: folder.id, title: 'Dokumente', breadcrumb: '/Allgemein/Dokumente' },
      folder_id: folder.id,
      folder_name: 'Dokumente',
      size: 0,
      size_bytes: content.length,
      date: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    expect(file.external).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const row = await t.db.kysely
      .selectFrom('files')
      .selectAll()
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(row.storage_key).not.toBe(row.download_key);
    expect(await t.app.context.storage.size(row.storage_key)).toBe(content.length);
    const res2 = await download(file.external);
    expect(res2.rawPayload.equals(content)).toBe(true);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'file.created')
      .where('object_id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(audit.actor_id).toBe(admin.id);
    expect(JSON.parse(audit.details!)).toMatchObject({
      folder: '/Allgemein/Dokumente',
      roles: ['Aufsichtsrat', 'Vertreter'],
    });
  });

  it('accepts the file part before the fields and `permissions[]` names', async () => {
    const body = multipart(
      [
        ['title', 'Reihenfolge egal'],
        ['permissions[]', String(vertreterId)],
        ['folder_id', String(folder.id)],
      ],
      { filename: 'notiz.txt', type: 'text/plain', content: 'Hallo' },
      true,
    );
    const res = await postFiles(body.headers, body.payload);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().file).toMatchObject({ format: 'txt', mime_type: 'text/plain', roles: ['Vertreter'] });
  });

  it('accepts both JSON readings with the file as a data URL', async () => {
    const second = await postFiles(
      {},
      {
        title: 'Zweite Lesart',
        file: dataUrl('PNG-Inhalt', 'image/png'),
        permissions: [aufsichtsratId],
        notifications: [],
        folder_id: folder.id,
      },
    );
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().file).toMatchObject({
      format: 'png',
      mime_type: 'image/png',
      roles: ['Aufsichtsrat'],
    });

    const first = await postFiles(
      {},
      {
        title: 'Erste Lesart',
        roles: ['Vertreter'],
        folders: [folder.id],
        notifications: ['Vertreter'],
        data: dataUrl(pdfBytes('Erste')),
      },
    );
    expect(first.statusCode, first.body).toBe(201);
    const file = first.json().file;
    expect(file).toMatchObject({ format: 'pdf', folder_id: folder.id, roles: ['Vertreter'] });
    expect((await download(file.external)).rawPayload.equals(pdfBytes('Erste'))).toBe(true);
    const mails = await t.flushMail();
    const mail = mails.find((m) => m.to === users.vertreter.email && m.subject.includes('Erste Lesart'));
    expect(mail?.text).toContain(`http://portal.test/files/show/${file.id}`);
  });

  it('reports every missing field at once and stores nothing', async () => {
    const before = await storedObjects(t);
    const rows = await fileRowCount(t);
    const body = multipart([['title', 'ab']], { filename: 'x.pdf', content: pdfBytes() });
    const res = await postFiles(body.headers, body.payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      title: ['Titel muss mindestens 3 Zeichen lang sein.'],
      permissions: ['Bitte mindestens eine Rolle wählen.'],
      roles: ['Bitte mindestens eine Rolle wählen.'],
      folder_id: ['Bitte einen Ordner wählen.'],
    });
    const noFile = multipart([
      ['title', 'Ohne Datei'],
      ['permissions', 'Vertreter'],
      ['folder_id', String(folder.id)],
    ]);
    const res2 = await postFiles(noFile.headers, noFile.payload);
    expect(res2.statusCode).toBe(422);
    expect(res2.json().errors).toEqual({ file: ['Bitte eine Datei auswählen.'] });
    const json = await postFiles({}, { title: 'Ohne Daten', roles: ['Vertreter'], folders: [folder.id] });
    expect(json.json().errors).toEqual({ data: ['Bitte eine Datei auswählen.'] });
    expect(await storedObjects(t)).toEqual(before);
    expect(await fileRowCount(t)).toBe(rows);
  });

  it('refuses the root, unknown folders, unknown roles and notifications outside the roles', async () => {
    const before = await storedObjects(t);
    const rows = await fileRowCount(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { folder_id: 1 },
        'folder_id',
        'In den Hauptordner können keine Dateien hochgeladen werden. Bitte einen Unterordner wählen.',
      ],
      [{ folder_id: 424242 }, 'folder_id', 'Der Ordner wurde nicht gefunden.'],
      [{ permissions: ['Vorstand'] }, 'permissions', 'Die Rolle „Vorstand“ gibt es nicht.'],
      [{ permissions: [9999] }, 'permissions', 'Die Rolle „9999“ gibt es nicht.'],
      [
        { notifications: ['Aufsichtsrat'] },
        'notifications',
        'Benachrichtigungen können nur an Rollen gehen, die die Datei sehen dürfen.',
      ],
    ];
    for (const [override, field, message] of cases) {
      const res = await postFiles(
        {},
        {
          title: 'Fehlerfall',
          file: dataUrl(pdfBytes()),
          permissions: ['Vertreter'],
          folder_id: folder.id,
          ...override,
        },
      );
      expect(res.statusCode, JSON.stringify(override)).toBe(422);
      expect(res.json().errors).toEqual({ [field]: [message] });
    }
    const two = await postFiles(
      {},
      { title: 'Zwei Ordner', roles: ['Vertreter'], folders: [folder.id, 4], data: dataUrl('x') },
    );
    expect(two.json().errors).toEqual({ folders: ['Bitte höchstens einen Ordner wählen.'] });
    expect(await storedObjects(t)).toEqual(before);
    expect(await fileRowCount(t)).toBe(rows);
  });

  it('answers broken uploads with German 4xx, never 500, and leaves nothing behind', async () => {
    const before = await storedObjects(t);
    const base = { title: 'Kaputt', permissions: ['Vertreter'], folder_id: folder.id };
    let res = await postFiles({}, { ...base, file: 'data:application/pdf;base64,@@@@' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ file: ['Die Data-URL der Datei ist fehlerhaft.'] });
    res = await postFiles({}, { ...base, file: 'https://example.org/datei.pdf' });
    expect(res.json().errors).toEqual({
      file: ['Die Datei muss als Data-URL (data:…;base64,…) übermittelt werden.'],
    });
    res = await postFiles({}, { ...base, file: 'data:application/pdf;base64,' });
    expect(res.json().errors).toEqual({ file: ['Die Datei ist leer.'] });

    const body = multipart([['title', 'Abgeschnitten']], { filename: 'a.pdf', content: pdfBytes() });
    const truncated = body.payload.subarray(0, body.payload.length - 30);
    res = await postFiles(body.headers, truncated);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Die hochgeladenen Formulardaten sind unvollständig oder fehlerhaft.');

    const twoFiles = multipart([['title', 'Zwei Dateien']], { filename: 'a.pdf', content: pdfBytes() });
    const extra = Buffer.from(
      twoFiles.payload
        .toString('latin1')
        .replace(
          /--(\S+)--\r\n$/,
          (_m, b: string) =>
            `--${b}\r\nContent-Disposition: form-data; name="file2"; filename="b.pdf"\r\nContent-Type: application/pdf\r\n\r\nzweite\r\n--${b}--\r\n`,
        ),
      'latin1',
    );
    res = await postFiles(twoFiles.headers, extra);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Es kann nur eine Datei hochgeladen werden.');

    res = await postFiles({ 'content-type': 'text/plain' }, Buffer.from('hallo'));
    expect(res.statusCode).toBe(415);
    expect(await storedObjects(t)).toEqual(before);
  });

  it('leaves no object and no row when the database fails after the content was stored', async () => {
    const before = await storedObjects(t);
    const rows = await fileRowCount(t);
    const res = await withPlugin(t, new FailingWrites('InsertQueryNode', 'files'), () =>
      uploadRaw(t, admin, folder.id, 'Absturz'),
    );
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      message: 'Ein interner Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.',
    });
    expect(await storedObjects(t)).toEqual(before);
    expect(await fileRowCount(t)).toBe(rows);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .where('object_label', '=', 'Absturz.pdf')
      .execute();
    expect(audit).toEqual([]);
  });

  it('replaces content: new object first, row committed, the old object kept as version 1', async () => {
    const file = await uploadFile(t, admin, {
      title: 'Zu ersetzen',
      folderId: folder.id,
      roles: ['Vertreter'],
    });
    const oldRow = await t.db.kysely
      .selectFrom('files')
      .selectAll()
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    t.clock.advance(60_000);
    const body = multipart([['title', 'Ersetzt']], {
      filename: 'neu.docx',
      type: 'application/x-irgendwas',
      content: 'Neuer Inhalt',
    });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/files/${file.id}`,
      headers: { ...admin.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().file;
    expect(updated).toMatchObject({
      title: 'Ersetzt',
      format: 'docx',
      mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      size_bytes: 12,
      roles: ['Vertreter'],
      folder_id: folder.id,
      external: file.external,
      updated_at: t.clock.now().toISOString(),
    });
    expect(await t.app.context.storage.size(oldRow.storage_key)).toBe(oldRow.size_bytes);
    const kept = await t.db.kysely
      .selectFrom('file_versions')
      .selectAll()
      .where('file_id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ version: 1, storage_key: oldRow.storage_key, sha256: oldRow.sha256 });
    expect((await download(file.external)).body).toBe('Neuer Inhalt');
  });

  it('keeps the old content when the replacement cannot be committed', async () => {
    const file = await uploadFile(t, admin, {
      title: 'Bleibt',
      folderId: folder.id,
      roles: ['Vertreter'],
      content: 'Alter Inhalt',
    });
    const before = await storedObjects(t);
    const res = await withPlugin(t, new FailingWrites('UpdateQueryNode', 'files'), () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/files/${file.id}`,
        headers: admin.headers,
        payload: { title: 'Bleibt', file: dataUrl('Neuer Inhalt', 'text/plain') },
      }),
    );
    expect(res.statusCode).toBe(500);
    expect(await storedObjects(t)).toEqual(before);
    const again = (
      await t.app.inject({ method: 'GET', url: `/api/v1/files/${file.id}`, headers: admin.headers })
    ).json().data;
    expect(again).toMatchObject({ title: 'Bleibt', format: 'pdf' });
    expect((await download(file.external)).body).toBe('Alter Inhalt');
  });

  it('updates title, roles and folder in both readings without touching the content', async () => {
    const other = await createFolder(t, admin, { folder_id: 3, title: 'Anderswo' });
    const file = await uploadFile(t, admin, {
      title: 'Beweglich',
      folderId: folder.id,
      roles: ['Vertreter'],
    });
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/files/${file.id}`, headers: admin.headers, payload });
    let res = await put({ title: 'Bewegt', permissions: [aufsichtsratId, vertreterId], folder_id: other.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().file).toMatchObject({
      title: 'Bewegt',
      roles: ['Aufsichtsrat', 'Vertreter'],
      folder: { id: other.id, breadcrumb: '/Mitgliedervertreter/Anderswo' },
      size_bytes: file.format === 'pdf' ? expect.any(Number) : 0,
    });
    res = await put({ title: 'Zurück', roles: ['Vertreter'], folders: [folder.id] });
    expect(res.json().file).toMatchObject({ title: 'Zurück', roles: ['Vertreter'], folder_id: folder.id });
    res = await put({ title: 'Ins Hauptverzeichnis', folder_id: 1 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['folder_id']);
    res = await put({ title: 'x' });
    expect(res.json().errors).toEqual({ title: ['Titel muss mindestens 3 Zeichen lang sein.'] });
    res = await put({ permissions: [] });
    expect(res.json().errors).toEqual({ permissions: ['Bitte mindestens eine Rolle wählen.'] });
    expect((await download(file.external)).rawPayload.equals(pdfBytes('Beweglich'))).toBe(true);

    // Notifications on update go to those who may see the file, about the change.
    await t.flushMail();
    const before = t.mail.sent.length;
    res = await put({ notifications: ['Vertreter'] });
    expect(res.statusCode).toBe(200);
    const mails = (await t.flushMail()).slice(before);
    expect(mails.map((m) => m.to)).toEqual([users.vertreter.email]);
    expect(mails[0]!.subject).toBe('Aktualisiertes Dokument im Gremienportal: Zurück');
  });

  it('deletes a file into the Papierkorb; it is gone everywhere, its content goes when purged', async () => {
    const file = await uploadFile(t, admin, {
      title: 'Wegwerfen',
      folderId: folder.id,
      roles: ['Vertreter'],
    });
    const row = await t.db.kysely
      .selectFrom('files')
      .selectAll()
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/files/${file.id}`,
      headers: users.superAdmin.headers,
    });
    expect(res.statusCode).toBe(204);
    expect(await t.app.context.storage.size(row.storage_key)).toBe(row.size_bytes);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/files/${file.id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(404);
    expect((await download(file.external)).statusCode).toBe(404);
    const roles = await t.db.kysely
      .selectFrom('file_roles')
      .select('role_id')
      .where('file_id', '=', file.id)
      .execute();
    expect(roles).toEqual([]);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('actor_id')
      .where('action', '=', 'file.deleted')
      .where('object_id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(audit.actor_id).toBe(users.superAdmin.id);
    const purge = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/trash/file/${file.id}`,
      headers: users.superAdmin.headers,
    });
    expect(purge.statusCode, purge.body).toBe(204);
    expect(await t.app.context.storage.size(row.storage_key)).toBeNull();
  });

  it('lets only Admin and Super-Admin write files: 403 for the others, 401 anonymous, nothing stored', async () => {
    const file = await uploadFile(t, admin, {
      title: 'Geschützt',
      folderId: folder.id,
      roles: ['Vertreter'],
    });
    const before = await storedObjects(t);
    const body = multipart(
      [
        ['title', 'Unerlaubt'],
        ['permissions', 'Vertreter'],
        ['folder_id', String(folder.id)],
      ],
      { filename: 'u.pdf', content: pdfBytes() },
    );
    for (const user of [users.vertreter, users.aufsichtsrat, null]) {
      const headers = user ? user.headers : {};
      const expected = user ? 403 : 401;
      const create = await t.app.inject({
        method: 'POST',
        url: '/api/v1/files',
        headers: { ...headers, ...body.headers },
        payload: body.payload,
      });
      expect(create.statusCode).toBe(expected);
      const update = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/files/${file.id}`,
        headers,
        payload: { title: 'Geändert' },
      });
      expect(update.statusCode).toBe(expected);
      const del = await t.app.inject({ method: 'DELETE', url: `/api/v1/files/${file.id}`, headers });
      expect(del.statusCode).toBe(expected);
    }
    expect(await storedObjects(t)).toEqual(before);
    const data = (
      await t.app.inject({ method: 'GET', url: `/api/v1/files/${file.id}`, headers: users.vertreter.headers })
    ).json().data;
    expect(data.title).toBe('Geschützt');
  });

  it('lists files newest first with a limit', async () => {
    t.clock.advance(60_000);
    const newest = await uploadFile(t, admin, {
      title: 'Ganz neu',
      folderId: folder.id,
      roles: ['Vertreter'],
    });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/files?limit=2',
      headers: users.vertreter.headers,
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toHaveLength(2);
    expect(data[0].id).toBe(newest.id);
    expect(data[0].updated_at >= data[1].updated_at).toBe(true);
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/files?limit=0', headers: admin.headers });
    expect(bad.statusCode).toBe(422);
  });

  it('documents every route of the area in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    for (const [path, method] of [
      ['/api/v1/folders', 'get'],
      ['/api/v1/folders', 'post'],
      ['/api/v1/folders/{id}', 'get'],
      ['/api/v1/folders/{id}', 'put'],
      ['/api/v1/folders/{id}', 'delete'],
      ['/api/v1/folders/{id}/files', 'get'],
      ['/api/v1/root/files', 'get'],
      ['/api/v1/files', 'get'],
      ['/api/v1/files', 'post'],
      ['/api/v1/files/{id}', 'get'],
      ['/api/v1/files/{id}', 'put'],
      ['/api/v1/files/{id}', 'delete'],
      ['/api/v1/download/{key}', 'get'],
      ['/api/v1/tree', 'get'],
      ['/api/v1/breadcrumbs/{id}', 'get'],
      ['/api/v1/file-breadcrumbs', 'get'],
      ['/api/v1/period', 'post'],
    ] as const) {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation!.responses).length, `${method} ${path}`).toBeGreaterThan(1);
    }
  });
});

describe('upload size limit', () => {
  let t: TestApp;
  let admin: TestUser;
  let folderId: number;
  const limit = 1024 * 1024;
  beforeAll(async () => {
    t = await buildTestApp({ env: { MAX_UPLOAD_MB: '1' } });
    admin = (await createRoleUsers(t)).admin;
    folderId = (await createFolder(t, admin, { folder_id: 4, title: 'Groß' })).id;
  });
  afterAll(() => t.close());

  it('answers 413 in German one byte over MAX_UPLOAD_MB and leaves nothing in storage', async () => {
    const res = await uploadRaw(t, admin, folderId, 'Zu groß', Buffer.alloc(limit + 1, 7));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Die Datei ist zu groß. Erlaubt sind höchstens 1 MB.' });
    expect(await storedObjects(t)).toEqual({ objects: [], temp: [] });
    expect(await fileRowCount(t)).toBe(0);

    const json = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: admin.headers,
      payload: {
        title: 'Zu groß',
        file: dataUrl(Buffer.alloc(limit + 1, 7)),
        permissions: ['Vertreter'],
        folder_id: folderId,
      },
    });
    expect(json.statusCode).toBe(413);
    expect(json.json().message).toBe('Die Datei ist zu groß. Erlaubt sind höchstens 1 MB.');
    expect(await storedObjects(t)).toEqual({ objects: [], temp: [] });
    expect(await fileRowCount(t)).toBe(0);
  });

  it('accepts exactly MAX_UPLOAD_MB', async () => {
    const res = await uploadRaw(t, admin, folderId, 'Genau richtig', Buffer.alloc(limit, 7));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().file).toMatchObject({ size_bytes: limit, size: 1 });
    expect((await storedObjects(t)).objects).toHaveLength(1);
  });
});

function uploadRaw(
  t: TestApp,
  user: TestUser,
  folderId: number,
  title: string,
  content: Buffer = pdfBytes(title),
) {
  const body = multipart(
    [
      ['title', title],
      ['permissions', 'Vertreter'],
      ['folder_id', String(folderId)],
    ],
    { filename: `${title}.pdf`, type: 'application/pdf', content },
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/files',
    headers: { ...user.headers, ...body.headers },
    payload: body.payload,
  });
}
