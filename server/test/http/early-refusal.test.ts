import { randomBytes } from 'node:crypto';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createRoleUsers, type TestUser } from '../support/factories.ts';
import { fileRowCount, multipart, pdfBytes, storedObjects, uploadFile } from '../support/files.fixtures.ts';

/**
 * Uploads refuse early (product.md P6.6): a multipart upload whose fields before the file part
 * are invalid is answered before the file is stored, and the connection then ends instead of the
 * server reading the rest. A slow client over a real socket shows when the answer comes.
 */

const FOLDER_ID = 3;
const MiB = 1024 * 1024;
/** What the client claims to send: far more than it ever does. */
const DECLARED_FILE_BYTES = 1024 * MiB;
const CHUNK = 16 * 1024;
/** 64 chunks of 16 KiB per MiB, 25 ms apart: 1.6 s per MiB, ample for a loaded machine. */
const PAUSE_MS = 25;

let t: TestApp;
let port: number;
let users: Awaited<ReturnType<typeof createRoleUsers>>;

beforeAll(async () => {
  t = await buildTestApp({ env: { MAX_UPLOAD_MB: '2000' } });
  users = await createRoleUsers(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await t.close();
});

interface SlowResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** File bytes written when the answer's head arrived. */
  fileBytesAtAnswer: number;
  /** Whether the server ended the connection while the client still had data to send. */
  closedByServer: boolean;
  fileBytesSent: number;
}

/**
 * Sends the fields at once, then the file in small chunks with pauses, until the server ends the
 * connection or `fileBytes` are sent (then the closing boundary, and the client hangs up once the
 * answer is in).
 */
function slowUpload(options: {
  method: 'POST' | 'PUT';
  path: string;
  user: TestUser;
  fields: [string, string][];
  fileBytes: number;
  declaredFileBytes?: number;
}): Promise<SlowResult> {
  const boundary = `----langsam${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    options.fields
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gross.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const declared = options.declaredFileBytes ?? options.fileBytes;
  const socket = connect(port, '127.0.0.1');
  socket.write(
    `${options.method} /api/v1${options.path} HTTP/1.1\r\nHost: portal.test\r\n` +
      `Authorization: Bearer ${options.user.token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${head.length + declared + tail.length}\r\n\r\n`,
  );
  socket.write(head);
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    let sent = 0;
    let fileBytesAtAnswer: number | undefined;
    let closed = false;
    socket.on('error', () => {
      // The server resets a connection it stopped reading; the close below reports it.
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      fileBytesAtAnswer ??= sent;
      // A whole answer after the whole request: the client is done and hangs up itself.
      const length = /content-length: *(\d+)/i.exec(received.subarray(0, end).toString('latin1'));
      if (sent >= options.fileBytes && length && received.length >= end + 4 + Number(length[1])) {
        socket.end();
      }
    });
    socket.on('close', () => {
      closed = true;
      const text = received.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) {
        reject(new Error(`Keine Antwort (${sent} Bytes gesendet)`));
        return;
      }
      const [statusLine, ...headerLines] = text.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: text.slice(end + 4),
        fileBytesAtAnswer: fileBytesAtAnswer ?? sent,
        closedByServer: sent < options.fileBytes,
        fileBytesSent: sent,
      });
    });
    const pump = () => {
      if (closed || socket.destroyed) return;
      if (sent >= options.fileBytes) {
        socket.write(tail);
        return;
      }
      const size = Math.min(CHUNK, options.fileBytes - sent);
      socket.write(randomBytes(size));
      sent += size;
      setTimeout(pump, PAUSE_MS);
    };
    pump();
  });
}

async function expectNothingStored(before: number) {
  expect(await fileRowCount(t)).toBe(before);
  const { objects, temp } = await storedObjects(t);
  expect(temp).toEqual([]);
  return objects;
}

/** Refused while the file was still coming: before 1 MiB of it, and the connection closed. */
function expectRefusedEarly(result: SlowResult, status: number) {
  expect(result.status, result.body).toBe(status);
  expect(result.fileBytesAtAnswer).toBeLessThan(MiB);
  expect(result.headers.connection).toBe('close');
  // The server stopped reading: the client could not send its gigabyte (it gives up at 16 MiB).
  expect(result.closedByServer).toBe(true);
}

const validFields = (title: string): [string, string][] => [
  ['title', title],
  ['permissions', 'Vertreter'],
  ['folder_id', String(FOLDER_ID)],
];

describe('multipart uploads refuse invalid fields before the file', () => {
  it.each([
    [
      'a two-letter title',
      [
        ['title', 'ab'],
        ['permissions', 'Vertreter'],
        ['folder_id', String(FOLDER_ID)],
      ],
      'title',
    ],
    [
      'an unknown folder',
      [
        ['title', 'Bericht'],
        ['permissions', 'Vertreter'],
        ['folder_id', '99999'],
      ],
      'folder_id',
    ],
    [
      'an unknown role',
      [
        ['title', 'Bericht'],
        ['permissions', 'Niemand'],
        ['folder_id', String(FOLDER_ID)],
      ],
      'permissions',
    ],
  ] as [string, [string, string][], string][])(
    'POST with %s: 422 before 1 MiB, nothing stored',
    async (_, fields, field) => {
      const rows = await fileRowCount(t);
      const objects = (await storedObjects(t)).objects;
      const result = await slowUpload({
        method: 'POST',
        path: '/files',
        user: users.admin,
        fields,
        fileBytes: 16 * MiB,
        declaredFileBytes: DECLARED_FILE_BYTES,
      });
      expectRefusedEarly(result, 422);
      const body = JSON.parse(result.body) as { errors: Record<string, string[]> };
      expect(Object.keys(body.errors)).toEqual([field]);
      expect(await expectNothingStored(rows)).toEqual(objects);
    },
    60_000,
  );

  it('POST by a member without the rights: 403 before 1 MiB, nothing stored', async () => {
    const rows = await fileRowCount(t);
    const objects = (await storedObjects(t)).objects;
    const result = await slowUpload({
      method: 'POST',
      path: '/files',
      user: users.vertreter,
      fields: validFields('Bericht'),
      fileBytes: 16 * MiB,
      declaredFileBytes: DECLARED_FILE_BYTES,
    });
    expectRefusedEarly(result, 403);
    expect(await expectNothingStored(rows)).toEqual(objects);
  }, 60_000);

  it('PUT of a missing document (404) or with a bad title (422) is refused early and changes nothing', async () => {
    const file = await uploadFile(t, users.admin, {
      title: 'Vorhanden',
      folderId: FOLDER_ID,
      roles: ['Vertreter'],
    });
    const rows = await fileRowCount(t);
    const objects = (await storedObjects(t)).objects;
    const missing = await slowUpload({
      method: 'PUT',
      path: '/files/99999',
      user: users.admin,
      fields: [['title', 'Neuer Titel']],
      fileBytes: 16 * MiB,
      declaredFileBytes: DECLARED_FILE_BYTES,
    });
    expectRefusedEarly(missing, 404);
    const badTitle = await slowUpload({
      method: 'PUT',
      path: `/files/${file.id}`,
      user: users.admin,
      fields: [['title', 'ab']],
      fileBytes: 16 * MiB,
      declaredFileBytes: DECLARED_FILE_BYTES,
    });
    expectRefusedEarly(badTitle, 422);
    expect(Object.keys((JSON.parse(badTitle.body) as { errors: object }).errors)).toEqual(['title']);
    expect(await expectNothingStored(rows)).toEqual(objects);
    const row = await t.db.kysely
      .selectFrom('files')
      .select(['title', 'version'])
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ title: 'Vorhanden', version: 1 });
  }, 60_000);

  it('a valid slow upload is stored whole and keeps its connection', async () => {
    const rows = await fileRowCount(t);
    const result = await slowUpload({
      method: 'POST',
      path: '/files',
      user: users.admin,
      fields: validFields('Langsam hochgeladen'),
      fileBytes: 256 * 1024,
    });
    expect(result.status, result.body).toBe(201);
    expect(result.headers.connection).not.toBe('close');
    expect(result.fileBytesSent).toBe(256 * 1024);
    expect((JSON.parse(result.body) as { file: { size: number } }).file).toMatchObject({
      title: 'Langsam hochgeladen',
    });
    expect(await fileRowCount(t)).toBe(rows + 1);
  }, 60_000);

  it('fields after the file part are still judged by the full check, not refused as missing', async () => {
    const body = multipart(
      validFields('Felder hinter der Datei'),
      { filename: 'hinten.pdf', type: 'application/pdf', content: pdfBytes() },
      true,
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: { ...users.admin.headers, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
