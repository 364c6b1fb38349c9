// Over 300 lines: one storage contract runs against disk and s3rver (describe.each), next to the
// failing-store, portal-on-S3 and configuration cases that share the s3rver set-up and the stream helpers.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { ConfigError, configSchema, loadConfig } from '../../src/config.ts';
import { buildTestApp } from '../support/build-test-app.ts';
import { createRoleUsers } from '../support/factories.ts';
import { DiskStorage } from '../../src/storage/disk-storage.ts';
import type { FileStorage } from '../../src/storage/file-storage.ts';
import { MIN_PART_SIZE, S3Storage, s3ClientFromConfig } from '../../src/storage/s3-storage.ts';
import { S3rver, type S3rverInstance } from '../support/s3rver.ts';

const MiB = 1024 * 1024;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const KEY = /^[A-Za-z0-9_-]{16,64}$/;

/** A stream of `data` in chunks, the way a request body arrives. */
function chunked(data: Buffer, chunkSize = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let offset = 0; offset < data.length; offset += chunkSize) {
        yield data.subarray(offset, offset + chunkSize);
      }
    })(),
    { objectMode: false },
  );
}

/** A stream that delivers `bytes` and then fails, like a client that hangs up mid-upload. */
function brokenAfter(bytes: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) {
        this.destroy(new Error('Verbindung abgebrochen'));
        return;
      }
      const chunk = randomBytes(Math.min(64 * 1024, bytes - sent));
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

interface Subject {
  storage: FileStorage;
  /** Every object key the storage holds right now (also leftovers, however it names them). */
  listAll(): Promise<string[]>;
  /** Makes an object look `ms` old to the sweep. */
  age(key: string, ms: number): Promise<void>;
  cleanup(): Promise<void>;
}

let s3rver: S3rverInstance;
let s3rverDir: string;
let s3Endpoint: string;
const s3Credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const s3Client = () =>
  s3ClientFromConfig(
    configSchema.parse({
      STORAGE: 's3',
      S3_ENDPOINT: s3Endpoint,
      S3_BUCKET: 'unbenutzt',
      S3_ACCESS_KEY_ID: s3Credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3Credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    }),
  );

beforeAll(async () => {
  s3rverDir = await mkdtemp(join(tmpdir(), 'gremienportal-s3rver-'));
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory: s3rverDir, silent: true });
  const address = await s3rver.run();
  s3Endpoint = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await s3rver?.close();
  await rm(s3rverDir, { recursive: true, force: true });
});

async function diskSubject(): Promise<Subject> {
  const root = await mkdtemp(join(tmpdir(), 'gremienportal-disk-'));
  const list = async (dir: string, prefix = ''): Promise<string[]> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const names: string[] = [];
    for (const entry of entries) {
      if (entry.isDirectory()) names.push(...(await list(join(dir, entry.name), `${prefix}${entry.name}/`)));
      else names.push(`${prefix}${entry.name}`);
    }
    return names;
  };
  return {
    storage: new DiskStorage(root),
    listAll: () => list(root),
    async age(key, ms) {
      const then = new Date(Date.now() - ms);
      await utimes(join(root, key), then, then);
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

async function s3Subject(): Promise<Subject> {
  const client = s3Client();
  const bucket = `konformitaet-${randomBytes(4).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const storage = new S3Storage({ client, bucket, partSize: MIN_PART_SIZE });
  return {
    storage,
    async listAll() {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((object) => object.Key!);
    },
    // S3 keeps its own modification times; the sweep is given a later "older than" instead.
    age: async () => undefined,
    async cleanup() {
      storage.close();
    },
  };
}

describe.each([
  ['DiskStorage', diskSubject, false],
  ['S3Storage (s3rver)', s3Subject, true],
] as const)('%s', (_name, makeSubject, timesAreTheStores) => {
  let subject: Subject;
  let storage: FileStorage;
  beforeAll(async () => {
    subject = await makeSubject();
    storage = subject.storage;
  });
  afterAll(() => subject.cleanup());

  it('stores a stream and gives it back whole, with its size and SHA-256', async () => {
    const data = randomBytes(300 * 1024 + 7);
    const stored = await storage.put(chunked(data), { maxBytes: MiB });
    expect(stored.key).toMatch(KEY);
    expect(stored.size).toBe(data.length);
    expect(stored.sha256).toBe(sha256(data));
    expect(await storage.size(stored.key)).toBe(data.length);
    expect((await buffer(await storage.get(stored.key))).equals(data)).toBe(true);
  });

  it('reads byte ranges with an inclusive end', async () => {
    const data = Buffer.from('0123456789abcdefghij');
    const { key } = await storage.put(chunked(data), { maxBytes: 100 });
    expect((await buffer(await storage.get(key, { start: 0, end: 0 }))).toString()).toBe('0');
    expect((await buffer(await storage.get(key, { start: 2, end: 5 }))).toString()).toBe('2345');
    expect((await buffer(await storage.get(key, { start: 15, end: 19 }))).toString()).toBe('fghij');
    expect((await buffer(await storage.get(key, { start: 0, end: 19 }))).equals(data)).toBe(true);
  });

  it('gives every object its own unguessable key', async () => {
    const stored = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        storage.put(chunked(Buffer.from(`Inhalt ${i}`)), { maxBytes: 100 }),
      ),
    );
    expect(new Set(stored.map((s) => s.key)).size).toBe(8);
    for (const [i, s] of stored.entries()) {
      expect((await buffer(await storage.get(s.key))).toString()).toBe(`Inhalt ${i}`);
    }
  });

  it('stores an empty stream as an empty object', async () => {
    const stored = await storage.put(Readable.from([]), { maxBytes: 100 });
    expect(stored).toMatchObject({ size: 0, sha256: sha256(Buffer.alloc(0)) });
    expect(await storage.size(stored.key)).toBe(0);
    await storage.delete(stored.key);
  });

  it('accepts exactly maxBytes', async () => {
    const data = randomBytes(4096);
    const stored = await storage.put(chunked(data, 1000), { maxBytes: 4096 });
    expect(stored.size).toBe(4096);
    await storage.delete(stored.key);
  });

  it('refuses one byte over maxBytes with a 413 AppError and leaves nothing behind', async () => {
    const before = await subject.listAll();
    const error = await storage.put(chunked(randomBytes(4097), 1000), { maxBytes: 4096 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('payload_too_large');
    expect((error as AppError).message).toMatch(/zu groß/);
    expect(await subject.listAll()).toEqual(before);
  });

  it('streams a large upload in parts and can stop one midway without leaving anything', async () => {
    // Larger than one part (5 MiB on S3): a multipart upload with three parts.
    const data = randomBytes(12 * MiB + 123);
    const stored = await storage.put(chunked(data), { maxBytes: 20 * MiB });
    expect(stored.size).toBe(data.length);
    expect(stored.sha256).toBe(sha256(data));
    expect(await storage.size(stored.key)).toBe(data.length);
    const tail = await buffer(await storage.get(stored.key, { start: 12 * MiB - 10, end: 12 * MiB + 122 }));
    expect(tail.equals(data.subarray(12 * MiB - 10))).toBe(true);
    expect(sha256(await buffer(await storage.get(stored.key)))).toBe(stored.sha256);

    // Over the limit after the first part was already sent.
    const before = await subject.listAll();
    await expect(storage.put(chunked(randomBytes(8 * MiB)), { maxBytes: 7 * MiB })).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    expect(await subject.listAll()).toEqual(before);
    await storage.delete(stored.key);
  });

  it('fails with the source error when the upload breaks off, and leaves nothing behind', async () => {
    const before = await subject.listAll();
    await expect(storage.put(brokenAfter(200 * 1024), { maxBytes: MiB })).rejects.toThrow(
      'Verbindung abgebrochen',
    );
    await expect(storage.put(brokenAfter(6 * MiB), { maxBytes: 20 * MiB })).rejects.toThrow(
      'Verbindung abgebrochen',
    );
    expect(await subject.listAll()).toEqual(before);
  });

  it('answers null for the size of a missing object and refuses to read it', async () => {
    expect(await storage.size('A'.repeat(43))).toBeNull();
    expect(await storage.size('../../etc/passwd')).toBeNull();
    await expect(storage.get('A'.repeat(43))).rejects.toBeDefined();
    await expect(storage.get('../../etc/passwd')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('deletes an object; deleting a missing one is fine', async () => {
    const { key } = await storage.put(chunked(Buffer.from('weg damit')), { maxBytes: 100 });
    await storage.delete(key);
    expect(await storage.size(key)).toBeNull();
    await expect(storage.delete(key)).resolves.toBeUndefined();
    await expect(storage.delete('B'.repeat(43))).resolves.toBeUndefined();
  });

  it('sweeps objects no row refers to once they are older than the grace period', async () => {
    const referenced = await storage.put(chunked(Buffer.from('referenziert')), { maxBytes: 100 });
    const orphan = await storage.put(chunked(Buffer.from('verwaist')), { maxBytes: 100 });
    const isReferenced = async (key: string) => key === referenced.key;

    // Still within the grace period (an upload may be running on another instance): kept.
    const graceStart = new Date(Date.now() - 15 * 60_000);
    expect(await storage.sweep(isReferenced, graceStart)).not.toContain(orphan.key);
    expect(await storage.size(orphan.key)).not.toBeNull();

    await subject.age(orphan.key, 60 * 60_000);
    await subject.age(referenced.key, 60 * 60_000);
    const olderThan = timesAreTheStores ? new Date(Date.now() + 60_000) : graceStart;
    const removed = await storage.sweep(isReferenced, olderThan);
    expect(removed).toContain(orphan.key);
    expect(removed).not.toContain(referenced.key);
    expect(await storage.size(orphan.key)).toBeNull();
    expect(await storage.size(referenced.key)).toBe('referenziert'.length);
  });
});

describe('S3Storage against a store that fails', () => {
  let server: Server;
  let status = 507;
  let code = 'XMinioStorageFull';
  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(status, { 'content-type': 'application/xml' });
        response.end(
          `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>Fehler</Message></Error>`,
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const failingStorage = () => {
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      forcePathStyle: true,
      credentials: s3Credentials,
      maxAttempts: 1,
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
    return new S3Storage({ client, bucket: 'voll' });
  };

  it('maps a full store to insufficient_storage', async () => {
    status = 507;
    code = 'XMinioStorageFull';
    const storage = failingStorage();
    try {
      await expect(storage.put(chunked(randomBytes(1000)), { maxBytes: MiB })).rejects.toMatchObject({
        code: 'insufficient_storage',
      });
    } finally {
      storage.close();
    }
  });

  it('does not call an unreachable or failing store "missing"', async () => {
    status = 500;
    code = 'InternalError';
    const storage = failingStorage();
    try {
      await expect(storage.size('C'.repeat(43))).rejects.toBeDefined();
      const error = await storage.put(chunked(randomBytes(1000)), { maxBytes: MiB }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeDefined();
      expect(error).not.toBeInstanceOf(AppError);
    } finally {
      storage.close();
    }
  });
});

describe('the portal with STORAGE=s3', () => {
  it('uploads, downloads (also a range), keeps versions and deleted documents, and purges them from the bucket', async () => {
    const bucket = `portal-${randomBytes(4).toString('hex')}`;
    const client = s3Client();
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const t = await buildTestApp({
      env: {
        STORAGE: 's3',
        S3_ENDPOINT: s3Endpoint,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: s3Credentials.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3Credentials.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
    });
    const keys = async () =>
      ((await client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key);
    try {
      expect(t.app.context.storage).toBeInstanceOf(S3Storage);
      const { admin, superAdmin } = await createRoleUsers(t);
      const content = Buffer.from('%PDF-1.4\nProtokoll der Sitzung\n%%EOF\n');
      const boundary = '----gremienportal';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nProtokoll\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="folder_id"\r\n\r\n4\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="permissions"\r\n\r\nVertreter\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="protokoll.pdf"\r\n` +
            'Content-Type: application/pdf\r\n\r\n',
        ),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/files',
        headers: { ...admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: body,
      });
      expect(created.statusCode).toBe(201);
      const file = created.json().file as { id: number; external: string; size_bytes: number };
      expect(file.size_bytes).toBe(content.length);
      expect(await keys()).toHaveLength(1);

      const download = await t.app.inject({
        method: 'GET',
        url: `/api/v1/download/${file.external}`,
        headers: admin.headers,
      });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(content)).toBe(true);
      const partial = await t.app.inject({
        method: 'GET',
        url: `/api/v1/download/${file.external}`,
        headers: { ...admin.headers, range: 'bytes=9-22' },
      });
      expect(partial.statusCode).toBe(206);
      expect(partial.headers['content-range']).toBe(`bytes 9-22/${content.length}`);
      expect(partial.body).toBe('Protokoll der ');

      // Replacing keeps the old content as a version; deleting keeps both in the Papierkorb;
      // only the Super-Admin's purge frees the bucket (decision 125).
      const replaced = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/files/${file.id}`,
        headers: admin.headers,
        payload: { file: `data:text/plain;base64,${Buffer.from('Neue Fassung').toString('base64')}` },
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
      expect(await keys()).toHaveLength(2);
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/files/${file.id}`,
        headers: admin.headers,
      });
      expect(removed.statusCode).toBe(204);
      expect(await keys()).toHaveLength(2);
      const purged = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/trash/file/${file.id}`,
        headers: superAdmin.headers,
      });
      expect(purged.statusCode, purged.body).toBe(204);
      await expect.poll(keys).toEqual([]);
    } finally {
      await t.close();
      client.destroy();
    }
  });
});

describe('configuration of STORAGE=s3', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    return '';
  };

  it('needs a bucket, and names the variable when it is missing', () => {
    expect(problems({ STORAGE: 's3' })).toContain('S3_BUCKET: ist nötig, wenn STORAGE=s3 gesetzt ist');
    expect(problems({ STORAGE: 's3', S3_BUCKET: '' })).toMatch(/^ {2}S3_BUCKET: /m);
    expect(problems({ STORAGE: 's3', S3_BUCKET: 'Mein_Bucket' })).toMatch(
      /S3_BUCKET: ist kein gültiger Bucket-Name/,
    );
    // Disk storage does not care.
    expect(problems({ STORAGE: 'disk' })).toBe('');
  });

  it('wants access key and secret together', () => {
    expect(problems({ STORAGE: 's3', S3_BUCKET: 'portal', S3_ACCESS_KEY_ID: 'schluessel' })).toContain(
      'S3_SECRET_ACCESS_KEY: ist nötig, weil S3_ACCESS_KEY_ID gesetzt ist',
    );
    expect(problems({ STORAGE: 's3', S3_BUCKET: 'portal', S3_SECRET_ACCESS_KEY: 'geheim' })).toContain(
      'S3_ACCESS_KEY_ID: ist nötig, weil S3_SECRET_ACCESS_KEY gesetzt ist',
    );
  });

  it('reads a complete set-up, and leaves keys out for the default credential chain', () => {
    const config = loadConfig({
      STORAGE: 's3',
      S3_ENDPOINT: 'https://s3.example.org',
      S3_REGION: 'eu-central-1',
      S3_BUCKET: 'gremienportal-dokumente',
      S3_ACCESS_KEY_ID: 'schluessel',
      S3_SECRET_ACCESS_KEY: 'geheim',
      S3_FORCE_PATH_STYLE: 'true',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
    });
    expect(config).toMatchObject({
      STORAGE: 's3',
      S3_ENDPOINT: 'https://s3.example.org',
      S3_REGION: 'eu-central-1',
      S3_BUCKET: 'gremienportal-dokumente',
      S3_FORCE_PATH_STYLE: true,
      REDIS_URL: 'redis://127.0.0.1:6379/2',
    });
    const iam = loadConfig({ STORAGE: 's3', S3_BUCKET: 'portal', S3_REGION: '' });
    expect(iam.S3_ACCESS_KEY_ID).toBeUndefined();
    expect(iam.S3_REGION).toBe('us-east-1');
  });
});
