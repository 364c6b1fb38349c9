import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, sessionFor, type TestUser } from '../../support/factories.ts';
import { createFolder, uploadFile } from '../../support/files.fixtures.ts';

const CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

describe('GET and HEAD /api/v1/download/{key}', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let admin: TestUser;
  let folderId: number;
  const content = Buffer.from('0123456789abcdefghij', 'utf8');
  let pdf: { id: number; external: string };

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    admin = users.admin;
    folderId = (await createFolder(t, admin, { folder_id: 4, title: 'Downloads' })).id;
    pdf = await uploadFile(t, admin, {
      title: 'Prüfbericht "Ä" 2026',
      folderId,
      roles: ['Vertreter'],
      filename: 'bericht.pdf',
      // The client's media type is not trusted for formats the portal knows.
      type: 'text/html',
      content,
    });
  });
  afterAll(() => t.close());

  const download = (key: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({
      method,
      url: `/api/v1/download/${key}`,
      headers: { ...users.vertreter.headers, ...headers },
    });

  it('sends a PDF inline with safe headers and the name title.format', async () => {
    const res = await download(pdf.external);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(content)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `inline; filename="Pruefbericht _Ae_ 2026.pdf"; filename*=UTF-8''Pr%C3%BCfbericht%20%22%C3%84%22%202026.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe(CSP);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-length']).toBe(String(content.length));
  });

  it('sends HTML, SVG, XML and scripts as sandboxed attachments; raster images inline', async () => {
    const cases = [
      { filename: 'seite.html', type: 'text/html', disposition: 'attachment', contentType: 'text/html' },
      {
        filename: 'bild.svg',
        type: 'image/svg+xml',
        disposition: 'attachment',
        contentType: 'image/svg+xml',
      },
      {
        filename: 'daten.xml',
        type: 'application/xml',
        disposition: 'attachment',
        contentType: 'application/xml',
      },
      {
        filename: 'code.js',
        type: 'text/javascript',
        disposition: 'attachment',
        contentType: 'text/javascript',
      },
      { filename: 'foto.JPG', type: 'image/jpeg', disposition: 'inline', contentType: 'image/jpeg' },
      { filename: 'grafik.webp', type: 'image/webp', disposition: 'inline', contentType: 'image/webp' },
      {
        filename: 'tabelle.xlsx',
        type: 'application/octet-stream',
        disposition: 'attachment',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
      {
        filename: 'ohne-endung',
        type: 'application/x-foo',
        disposition: 'attachment',
        contentType: 'application/x-foo',
      },
    ];
    for (const c of cases) {
      const file = await uploadFile(t, admin, {
        title: `Datei ${c.filename}`,
        folderId,
        roles: ['Vertreter'],
        filename: c.filename,
        type: c.type,
        content: '<svg onload="alert(1)"></svg>',
      });
      const res = await download(file.external);
      expect(res.statusCode, c.filename).toBe(200);
      expect(res.headers['content-disposition'], c.filename).toMatch(new RegExp(`^${c.disposition};`));
      expect(res.headers['content-type'], c.filename).toBe(c.contentType);
      expect(res.headers['content-security-policy'], c.filename).toBe(CSP);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers HEAD with the headers and no body, and logs no download', async () => {
    const before = await downloadsLogged(pdf.id);
    const res = await download(pdf.external, {}, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['content-length']).toBe(String(content.length));
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline;/);
    expect(await downloadsLogged(pdf.id)).toBe(before);
  });

  it('serves single ranges with 206 and refuses unsatisfiable ones with 416', async () => {
    let res = await download(pdf.external, { range: 'bytes=0-4' });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('01234');
    expect(res.headers['content-range']).toBe(`bytes 0-4/${content.length}`);
    expect(res.headers['content-length']).toBe('5');

    res = await download(pdf.external, { range: 'bytes=15-' });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('fghij');
    expect(res.headers['content-range']).toBe(`bytes 15-19/${content.length}`);

    res = await download(pdf.external, { range: 'bytes=-3' });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('hij');

    res = await download(pdf.external, { range: 'bytes=10-999' });
    expect(res.statusCode).toBe(206);
    expect(res.body).toBe('abcdefghij');

    res = await download(pdf.external, { range: 'bytes=0-4' }, 'HEAD');
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-length']).toBe('5');
    expect(res.body).toBe('');

    res = await download(pdf.external, { range: 'bytes=20-' });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${content.length}`);
    expect(res.json()).toEqual({ message: 'Der angeforderte Bereich liegt außerhalb der Datei.' });

    // Several ranges and malformed headers get the whole file.
    for (const range of ['bytes=0-1,4-5', 'items=0-4', 'bytes=5-2']) {
      res = await download(pdf.external, { range });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.equals(content)).toBe(true);
    }
    // A resumption against another version gets the whole current file.
    res = await download(pdf.external, { range: 'bytes=0-4', 'if-range': '"veraltet"' });
    expect(res.statusCode).toBe(200);
    const etag = res.headers.etag as string;
    res = await download(pdf.external, { range: 'bytes=0-4', 'if-range': etag });
    expect(res.statusCode).toBe(206);
  });

  it('records a download in the audit log once per download', async () => {
    // A session of its own: the ranges above were this user's download already (decision 116).
    const session = { authorization: `Bearer ${await sessionFor(t, users.vertreter.id)}` };
    const before = await downloadsLogged(pdf.id);
    await download(pdf.external, session);
    await download(pdf.external, { ...session, range: 'bytes=5-9' });
    expect(await downloadsLogged(pdf.id)).toBe(before + 1);
    const row = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'file.downloaded')
      .where('object_id', '=', pdf.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.actor_id).toBe(users.vertreter.id);
    expect(row.object_type).toBe('file');
  });

  it('records opening in a tab ("Ansehen") as a view, not as a download', async () => {
    const downloadsBefore = await downloadsLogged(pdf.id);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/download/${pdf.external}?purpose=view`,
      headers: users.vertreter.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(await downloadsLogged(pdf.id)).toBe(downloadsBefore);
    const views = await t.db.kysely
      .selectFrom('audit_log')
      .select(['actor_id'])
      .where('action', '=', 'file.viewed')
      .where('object_id', '=', pdf.id)
      .execute();
    expect(views).toEqual([{ actor_id: users.vertreter.id }]);
    const odd = await t.app.inject({
      method: 'GET',
      url: `/api/v1/download/${pdf.external}?purpose=drucken`,
      headers: users.vertreter.headers,
    });
    expect(odd.statusCode).toBe(422);
  });

  it('answers 404 when the stored content is gone', async () => {
    const file = await uploadFile(t, admin, { title: 'Verschwunden', folderId, roles: ['Vertreter'] });
    const row = await t.db.kysely
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    await t.app.context.storage.delete(row.storage_key);
    const res = await download(file.external);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Die Datei ist nicht mehr vorhanden.' });
  });

  async function downloadsLogged(fileId: number): Promise<number> {
    const rows = await t.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'file.downloaded')
      .where('object_id', '=', fileId)
      .execute();
    return rows.length;
  }
});
