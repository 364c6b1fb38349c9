import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, sessionFor, type TestUser } from '../../support/factories.ts';
import { createFolder, uploadFile } from '../../support/files.fixtures.ts';
import { Offload, OFFLOAD_MODES, type OffloadMode } from '../../support/offload.ts';

const CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

/**
 * The same downloads under every DOWNLOAD_OFFLOAD mode (decision 135): what the client receives
 * is the same, whoever sends the bytes. With `s3` the object store sends them, which sets the
 * media type, name and caching rule but none of the portal's other headers: those are checked
 * on the portal's answer (the 303) instead.
 */
describe.each(OFFLOAD_MODES)(
  'GET and HEAD /api/v1/download/{key} (DOWNLOAD_OFFLOAD=%s)',
  (mode: OffloadMode) => {
    let t: TestApp;
    let offload: Offload;
    let users: Awaited<ReturnType<typeof createRoleUsers>>;
    let admin: TestUser;
    let folderId: number;
    const content = Buffer.from('0123456789abcdefghij', 'utf8');
    let pdf: { id: number; external: string };

    /** Headers only the portal (and nginx after it) sends; the object store cannot. */
    const portalHeaders = mode !== 's3';

    beforeAll(async () => {
      offload = await Offload.create(mode);
      t = await buildTestApp({ env: offload.env });
      await offload.attach(t);
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
    afterAll(async () => {
      await offload?.close();
      await t?.close();
    });

    const download = (key: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
      offload.request({
        method,
        url: `/api/v1/download/${key}`,
        headers: { ...users.vertreter.headers, ...headers },
      });

    it('sends a PDF inline with safe headers and the name title.format', async () => {
      const res = await download(pdf.external);
      expect(res.status).toBe(200);
      expect(res.body.equals(content)).toBe(true);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(
        `inline; filename="Pruefbericht _Ae_ 2026.pdf"; filename*=UTF-8''Pr%C3%BCfbericht%20%22%C3%84%22%202026.pdf`,
      );
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect(res.headers['content-length']).toBe(String(content.length));
      if (portalHeaders) {
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['content-security-policy']).toBe(CSP);
        expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
        // nginx's own validators do not replace the portal's.
        expect(res.headers['last-modified']).toBeUndefined();
      }
    });

    it('sends HTML, SVG, XML and scripts as sandboxed attachments; raster images inline', async () => {
      const cases = [
        {
          filename: 'seite.html',
          type: 'text/html',
          disposition: 'attachment',
          contentType: 'text/html; charset=utf-8',
        },
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
          contentType: 'text/javascript; charset=utf-8',
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
        expect(res.status, c.filename).toBe(200);
        expect(res.headers['content-disposition'], c.filename).toMatch(new RegExp(`^${c.disposition};`));
        expect(res.headers['content-type'], c.filename).toBe(c.contentType);
        if (portalHeaders) {
          expect(res.headers['content-security-policy'], c.filename).toBe(CSP);
          expect(res.headers['x-content-type-options']).toBe('nosniff');
        }
      }
    });

    it('names the character set of a text document, as its bytes show it', async () => {
      const cases = [
        { name: 'utf8', content: Buffer.from('Grüße aus Łódź\n', 'utf8'), charset: 'utf-8' },
        { name: 'latin1', content: Buffer.from('Grüße, Maß\n', 'latin1'), charset: 'windows-1252' },
        {
          name: 'utf16',
          content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße', 'utf16le')]),
          charset: 'utf-16le',
        },
        // A multi-byte character cut by the 64-KiB sample is still UTF-8.
        { name: 'long', content: Buffer.from(`${'a'.repeat(65_535)}ü`, 'utf8'), charset: 'utf-8' },
      ];
      for (const c of cases) {
        const file = await uploadFile(t, admin, {
          title: `Text ${c.name}`,
          folderId,
          roles: ['Vertreter'],
          filename: `${c.name}.txt`,
          type: 'text/plain',
          content: c.content,
        });
        const res = await download(file.external);
        expect(res.status, c.name).toBe(200);
        expect(res.headers['content-type'], c.name).toBe(`text/plain; charset=${c.charset}`);
      }
    });

    it('answers HEAD with the headers and no body, and logs no download', async () => {
      const before = await downloadsLogged(pdf.id);
      // HEAD has no bytes to hand over: the portal answers it in every mode.
      const res = await download(pdf.external, {}, 'HEAD');
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe(CSP);
      expect(res.headers['content-length']).toBe(String(content.length));
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toMatch(/^inline;/);
      expect(await downloadsLogged(pdf.id)).toBe(before);
    });

    it('serves single ranges with 206 and refuses unsatisfiable ones with 416', async () => {
      let res = await download(pdf.external, { range: 'bytes=0-4' });
      expect(res.status).toBe(206);
      expect(res.text).toBe('01234');
      expect(res.headers['content-range']).toBe(`bytes 0-4/${content.length}`);
      expect(res.headers['content-length']).toBe('5');

      res = await download(pdf.external, { range: 'bytes=15-' });
      expect(res.status).toBe(206);
      expect(res.text).toBe('fghij');
      expect(res.headers['content-range']).toBe(`bytes 15-19/${content.length}`);

      res = await download(pdf.external, { range: 'bytes=10-999' });
      expect(res.status).toBe(206);
      expect(res.text).toBe('abcdefghij');

      res = await download(pdf.external, { range: 'bytes=0-4' }, 'HEAD');
      expect(res.status).toBe(206);
      expect(res.headers['content-length']).toBe('5');
      expect(res.text).toBe('');

      // Past the end: the portal answers before any offload, in every mode.
      res = await download(pdf.external, { range: 'bytes=20-' });
      expect(res.status).toBe(416);
      expect(res.headers['content-range']).toBe(`bytes */${content.length}`);
      expect(res.json()).toEqual({ message: 'Der angeforderte Bereich liegt außerhalb der Datei.' });

      // With `s3` the store answers every other range form itself; s3rver, the store of these tests,
      // knows only `bytes=a-b` and `bytes=a-` (AWS S3 follows RFC 9110), so the rest is checked for
      // the portal and nginx.
      if (mode === 's3') return;

      res = await download(pdf.external, { range: 'bytes=-3' });
      expect(res.status).toBe(206);
      expect(res.text).toBe('hij');

      // Several ranges and other units get the whole file; so does an end before the start, except
      // behind nginx, which refuses that one with 416 (RFC 9110 allows both, decision 135).
      const whole = ['bytes=0-1,4-5', 'items=0-4', ...(mode === 'nginx' ? [] : ['bytes=5-2'])];
      for (const range of whole) {
        res = await download(pdf.external, { range });
        expect(res.status, range).toBe(200);
        expect(res.body.equals(content)).toBe(true);
      }
      if (mode === 'nginx') expect((await download(pdf.external, { range: 'bytes=5-2' })).status).toBe(416);
      // A resumption against another version gets the whole current file.
      res = await download(pdf.external, { range: 'bytes=0-4', 'if-range': '"veraltet"' });
      expect(res.status).toBe(200);
      expect(res.body.equals(content)).toBe(true);
      const etag = res.headers.etag as string;
      res = await download(pdf.external, { range: 'bytes=0-4', 'if-range': etag });
      expect(res.status).toBe(206);
      expect(res.text).toBe('01234');
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
      const res = await offload.request({
        url: `/api/v1/download/${pdf.external}?purpose=view`,
        headers: users.vertreter.headers,
      });
      expect(res.status).toBe(200);
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
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ message: 'Die Datei ist nicht mehr vorhanden.' });
    });

    it('hands over only the bytes: the answer of the portal itself', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/download/${pdf.external}`,
        headers: users.vertreter.headers,
      });
      const { storage_key: key } = await t.db.kysely
        .selectFrom('files')
        .select('storage_key')
        .where('id', '=', pdf.id)
        .executeTakeFirstOrThrow();
      const disposition = `inline; filename="Pruefbericht _Ae_ 2026.pdf"; filename*=UTF-8''Pr%C3%BCfbericht%20%22%C3%84%22%202026.pdf`;
      if (mode === 'none') {
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-accel-redirect']).toBeUndefined();
        expect(res.rawPayload.equals(content)).toBe(true);
      } else if (mode === 'nginx') {
        // Every header of the direct answer, no bytes, and where nginx finds the file.
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-accel-redirect']).toBe(`/_offload/${key}`);
        expect(res.body).toBe('');
        expect(res.headers).toMatchObject({
          'content-type': 'application/pdf',
          'content-disposition': disposition,
          'x-content-type-options': 'nosniff',
          'content-security-policy': CSP,
          'cache-control': 'private, no-store',
        });
        expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      } else {
        expect(res.statusCode).toBe(303);
        expect(res.body).toBe('');
        const location = new URL(offload.checkRedirect(res.headers));
        expect(location.pathname.endsWith(`/${key}`)).toBe(true);
        expect(location.searchParams.get('response-content-type')).toBe('application/pdf');
        expect(location.searchParams.get('response-content-disposition')).toBe(disposition);
        expect(location.searchParams.get('response-cache-control')).toBe('private, no-store');
        expect(res.headers['content-type']).toBeUndefined();
        expect(res.headers.etag).toBeUndefined();
      }
    });

    it('records nothing and sends nothing for a request that is refused', async () => {
      const before = await downloadsLogged(pdf.id);
      const stranger = await download(pdf.external, { authorization: 'Bearer ungueltig' });
      expect(stranger.status).toBe(401);
      const aufsichtsrat = await offload.request({
        url: `/api/v1/download/${pdf.external}`,
        headers: users.aufsichtsrat.headers,
      });
      expect(aufsichtsrat.status).toBe(404);
      expect(aufsichtsrat.headers['x-accel-redirect']).toBeUndefined();
      expect(aufsichtsrat.headers.location).toBeUndefined();
      const past = await download(pdf.external, { range: 'bytes=99-' });
      expect(past.status).toBe(416);
      expect(await downloadsLogged(pdf.id)).toBe(before);
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
  },
);
