// Over 300 lines: the two full-disk cases (document storage, whole data folder) share the WriteWatch plugin
// and the upload, download and nothing-half-written checks, on tmpfs and injected ENOSPC alike.
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
} from 'kysely';
import { pino } from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GERMAN } from '../../src/errors.ts';
import { openDatabase } from '../../src/db/database.ts';
import { fileTransport, type MailTransport } from '../../src/mail/transport.ts';
import { DiskStorage } from '../../src/storage/disk-storage.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, TEST_PASSWORD, type TestUser } from '../support/factories.ts';
import { sha256, storageContents } from './inspect.ts';
import { clientFor, fileForm, sleep, type ApiClient } from './portal-process.ts';
import { createSmallDisk, detectDiskKind, noSpaceError, type SmallDisk } from './small-disk.ts';

/**
 * Full disk (issue "Proof of security and reliability", item 5). Where the test may mount one, a
 * small tmpfs really runs full; elsewhere the same steps run against injected ENOSPC errors. The
 * portal is reached over real HTTP, so an answer sent while the client is still uploading counts
 * as it would for a browser.
 */

const kind = await detectDiskKind();
const postgres = Boolean(process.env.TEST_DATABASE_URL);
const label = kind === 'tmpfs' ? 'echtes tmpfs' : 'simulierte ENOSPC-Schreibfehler (kein mount möglich)';
const FOLDER_ID = 3;
const ROLE = 'Vertreter';
const silentLogger = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

/**
 * Watches the database writes: counts the mail sender's outbox updates and, for the injected
 * variant of "database on that disk", fails every write while the disk is full.
 */
class WriteWatch implements KyselyPlugin {
  outboxUpdates = 0;
  constructor(
    private readonly failWhenFull: (() => boolean) | undefined,
    private readonly dialect: 'sqlite' | 'postgres',
  ) {}
  transformQuery(args: PluginTransformQueryArgs) {
    const { node } = args;
    if (node.kind === 'UpdateQueryNode' && JSON.stringify(node.table).includes('"name":"outbox"')) {
      this.outboxUpdates += 1;
    }
    const writes = ['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode'];
    if (this.failWhenFull?.() && writes.includes(node.kind)) {
      throw this.dialect === 'sqlite'
        ? new SQLite.SqliteError('database or disk is full', 'SQLITE_FULL')
        : Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
    }
    return node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function upload(client: ApiClient, title: string, content: Buffer, notify: string[] = []) {
  return client.request(
    'POST',
    '/files',
    fileForm({ title, roles: [ROLE], notify, folderId: FOLDER_ID }, content, `${title}.pdf`),
  );
}

async function uploadAsDataUrl(client: ApiClient, title: string, content: Buffer) {
  return client.request('POST', '/files', {
    title,
    permissions: [ROLE],
    folder_id: FOLDER_ID,
    file: `data:application/pdf;base64,${content.toString('base64')}`,
  });
}

async function expectNoSpace(res: Response, what: string) {
  const body = await res.text();
  expect(res.status, `${what}: ${body}`).toBe(507);
  expect(JSON.parse(body), what).toEqual({ message: GERMAN.insufficientStorage });
}

async function downloadSha(client: ApiClient, id: number): Promise<string> {
  const details = await client.request('GET', `/files/${id}`);
  expect(details.status).toBe(200);
  const { data } = (await details.json()) as { data: { external: string } };
  const res = await client.request('GET', `/download/${data.external}`);
  expect(res.status, `Download der Datei ${id}`).toBe(200);
  return sha256(Buffer.from(await res.arrayBuffer()));
}

/** Every object in storage belongs to a row, and no temporary piece is left. */
async function expectNothingHalfWritten(t: TestApp, filesDir: string) {
  const rows = await t.db.kysely.selectFrom('files').select('storage_key').execute();
  const { objects, temp } = await storageContents(filesDir);
  expect(temp, 'temporäre Dateien').toEqual([]);
  expect(objects, 'gespeicherte Objekte').toEqual(rows.map((row) => row.storage_key).sort());
}

describe(`full disk (${label})`, () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  let t: TestApp | undefined;
  let disk: SmallDisk | undefined;

  beforeAll(() => {
    console.log(`Voller Datenträger: ${label}`);
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    await t?.close();
    await disk?.close();
    t = undefined;
    disk = undefined;
  });

  it(
    'document storage full: uploads answer 507 in German, nothing half-written remains, reads go on',
    { timeout: 60_000 },
    async () => {
      disk = await createSmallDisk(kind, 8);
      const filesDir = join(disk.dir, 'files');
      t = await buildTestApp({ storage: disk.wrapStorage(new DiskStorage(filesDir)) });
      const admin = clientFor(await listen(t), (await createUser(t, { roles: ['Admin'] })).token);
      const a = randomBytes(300 * 1024);
      const b = randomBytes(200 * 1024);
      const resA = await upload(admin, 'Protokoll A', a);
      expect(resA.status).toBe(201);
      const idA = ((await resA.json()) as { file: { id: number } }).file.id;
      const resB = await upload(admin, 'Protokoll B', b);
      expect(resB.status).toBe(201);
      const idB = ((await resB.json()) as { file: { id: number } }).file.id;

      // Larger than what is left: the write fails midway and its piece is removed again.
      const free = await disk.freeBytes();
      await expectNoSpace(await upload(admin, 'Zu groß', randomBytes(free + 256 * 1024)), 'zu großer Upload');
      await expectNoSpace(
        await uploadAsDataUrl(admin, 'Zu groß als Data-URL', randomBytes(free + 256 * 1024)),
        'zu großer Upload als Data-URL',
      );
      await expectNothingHalfWritten(t, filesDir);
      expect(await disk.freeBytes()).toBeGreaterThanOrEqual(free);

      // Not one byte left.
      await disk.fill();
      expect(await disk.freeBytes()).toBe(0);
      await expectNoSpace(await upload(admin, 'Klein', randomBytes(10 * 1024)), 'kleiner Upload');
      await expectNoSpace(await uploadAsDataUrl(admin, 'Klein', randomBytes(10 * 1024)), 'Data-URL-Upload');
      await expectNoSpace(
        await admin.request(
          'PUT',
          `/files/${idA}`,
          fileForm({ title: 'Protokoll A neu' }, randomBytes(50 * 1024)),
        ),
        'Ersetzen',
      );
      await expectNothingHalfWritten(t, filesDir);

      // The portal stays up and serves what it has, unchanged.
      expect((await fetch(`${admin.url}/api/v1/health`)).status).toBe(200);
      const list = await admin.request('GET', '/files');
      expect(list.status).toBe(200);
      expect(((await list.json()) as { data: { title: string }[] }).data.map((f) => f.title).sort()).toEqual([
        'Protokoll A',
        'Protokoll B',
      ]);
      expect((await admin.request('GET', '/tree')).status).toBe(200);
      expect(await downloadSha(admin, idA)).toBe(sha256(a));
      expect(await downloadSha(admin, idB)).toBe(sha256(b));

      // Space again: uploads work again.
      await disk.release();
      const c = randomBytes(100 * 1024);
      const resC = await upload(admin, 'Protokoll C', c);
      expect(resC.status).toBe(201);
      expect(await downloadSha(admin, ((await resC.json()) as { file: { id: number } }).file.id)).toBe(
        sha256(c),
      );
      await expectNothingHalfWritten(t, filesDir);
      expect(unhandled).toEqual([]);
    },
  );

  it(
    'whole data folder full (database, documents and mail on one disk): 507 instead of 500, no crash',
    { timeout: 60_000 },
    async () => {
      disk = await createSmallDisk(kind, 16);
      const smallDisk = disk;
      const filesDir = join(disk.dir, 'files');
      const mailDir = join(disk.dir, 'mail');
      // The database shares the full disk unless it is PostgreSQL on its own server (tmpfs case).
      const databaseOnDisk = kind === 'injected' || !postgres;
      const files = fileTransport(mailDir, silentLogger);
      const transport: MailTransport = {
        async send(message) {
          if (kind === 'injected' && smallDisk.full) throw noSpaceError();
          await files.send(message);
        },
        close: () => files.close(),
      };
      t = await buildTestApp({
        env: { DATA_DIR: disk.dir },
        ...(postgres ? {} : { db: openDatabase({ sqliteFile: join(disk.dir, 'portal.sqlite') }) }),
        storage: disk.wrapStorage(new DiskStorage(filesDir)),
        mailTransport: transport,
        startBackgroundJobs: true,
      });
      const watch = new WriteWatch(kind === 'injected' ? () => smallDisk.full : undefined, t.db.dialect);
      t.db.kysely = t.db.kysely.withPlugin(watch);
      const adminUser: TestUser = await createUser(t, { roles: ['Admin'] });
      await createUser(t, { roles: ['Vertreter'] });
      const admin = clientFor(await listen(t), adminUser.token);
      const a = randomBytes(200 * 1024);
      const resA = await upload(admin, 'Einladung', a, [ROLE]);
      expect(resA.status).toBe(201);
      const idA = ((await resA.json()) as { file: { id: number } }).file.id;
      // A mail that falls due while the disk is full.
      const now = t.clock.now().getTime();
      await t.db.kysely
        .insertInto('outbox')
        .values({
          to_address: 'vertreter@example.org',
          subject: 'Erinnerung',
          text_body: 'Bitte denken Sie an die Sitzung.',
          created_at: new Date(now).toISOString(),
          attempts: 0,
          next_attempt_at: new Date(now + 60_000).toISOString(),
          locked_until: null,
          sent_at: null,
          last_error: null,
        })
        .execute();

      await disk.fill();
      // The background sender's next round finds the mail due and fails to write to the full disk.
      t.clock.advance(2 * 60_000);
      const updatesBefore = watch.outboxUpdates;
      const deadline = Date.now() + 10_000;
      while (watch.outboxUpdates === updatesBefore && Date.now() < deadline) await sleep(50);
      expect(watch.outboxUpdates, 'der Mailversand lief bei vollem Datenträger').toBeGreaterThan(
        updatesBefore,
      );
      await sleep(300);

      await expectNoSpace(await upload(admin, 'Voll', randomBytes(10 * 1024)), 'Upload');
      await expectNoSpace(await uploadAsDataUrl(admin, 'Voll', randomBytes(10 * 1024)), 'Data-URL-Upload');
      await expectNothingHalfWritten(t, filesDir);

      // Reads that write nothing are served; what must write answers 507, never 500.
      expect((await fetch(`${admin.url}/api/v1/health`)).status).toBe(200);
      expect((await admin.request('GET', '/files')).status).toBe(200);
      expect((await admin.request('GET', `/files/${idA}`)).status).toBe(200);
      expect((await admin.request('GET', '/tree')).status).toBe(200);
      const folder = await admin.request('POST', '/folders', { title: 'Neuer Ordner', roles: [ROLE] });
      const login = await fetch(`${admin.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: adminUser.email, password: TEST_PASSWORD }),
      });
      if (databaseOnDisk) {
        await expectNoSpace(folder, 'Ordner anlegen');
        await expectNoSpace(login, 'Anmeldung');
        // A download is written to the audit log first; without room for that entry it is refused.
        const details = (await (await admin.request('GET', `/files/${idA}`)).json()) as {
          data: { external: string };
        };
        await expectNoSpace(await admin.request('GET', `/download/${details.data.external}`), 'Download');
      } else {
        expect(folder.status).toBe(201);
        expect(login.status).toBe(200);
        expect(await downloadSha(admin, idA)).toBe(sha256(a));
      }
      const mailLeftovers = (await readdir(mailDir).catch(() => [] as string[])).filter((name) =>
        name.endsWith('.tmp'),
      );
      expect(mailLeftovers, 'halb geschriebene Mails').toEqual([]);

      // Space again: everything works, and the mail that could not go out is delivered.
      await disk.release();
      t.clock.advance(5 * 60_000);
      const b = randomBytes(100 * 1024);
      const resB = await upload(admin, 'Nach dem Aufräumen', b);
      expect(resB.status).toBe(201);
      expect(await downloadSha(admin, ((await resB.json()) as { file: { id: number } }).file.id)).toBe(
        sha256(b),
      );
      expect(await downloadSha(admin, idA)).toBe(sha256(a));
      const mailDeadline = Date.now() + 15_000;
      for (;;) {
        const unsent = await t.db.kysely
          .selectFrom('outbox')
          .select('id')
          .where('sent_at', 'is', null)
          .execute();
        if (unsent.length === 0) break;
        expect(
          Date.now() < mailDeadline,
          `nicht zugestellte Mails ${unsent.map((m) => m.id).join(', ')}`,
        ).toBe(true);
        await sleep(200);
      }
      if (t.db.dialect === 'sqlite') {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(t.db.kysely);
        expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
      }
      await expectNothingHalfWritten(t, filesDir);
      expect(unhandled).toEqual([]);
    },
  );
});
