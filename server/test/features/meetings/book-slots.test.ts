import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createMeeting, FOLDER, markedPdf, putAgenda, uploadDocument } from '../../support/book.fixtures.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { readPdf } from '../../support/pdf-reader.ts';

/*
 * Decision 149: a member's slow download holds no build slot, a member gets one book at a time,
 * and a client that takes no data is cut off. Over a real port: the clients below open the book
 * and do not read it, so the portal's writes stop once the socket's buffers are full (about 4 MB
 * on Linux's loopback), which is why the book is larger than that.
 */

/** Bytes of incompressible filler in the meeting's document: the book is larger than this. */
const BULK_BYTES = 12 * 1024 ** 2;

/**
 * A one-page PDF carrying `bytes` of random filler: comment lines in content streams of 128 KiB
 * each, so that the book reaches the portal in many chunks (one large object would be one chunk).
 */
async function bulkyPdf(marker: string, bytes: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await markedPdf(marker, 1));
  const page = doc.getPage(0);
  const part = 128 * 1024;
  for (let done = 0; done < bytes; done += part) {
    const hex = randomBytes(part / 2).toString('hex');
    const lines: string[] = [];
    for (let at = 0; at < hex.length; at += 126) lines.push(`% ${hex.slice(at, at + 126)}`);
    page.node.addContentStream(doc.context.register(doc.context.stream(`${lines.join('\n')}\n`)));
  }
  return doc.save({ useObjectStreams: false });
}

/** An open download whose body is not read (until `drain`): its status and headers. */
interface StalledReader {
  status: number;
  size: number;
  body?: string;
  /** Reads on: the bytes that arrive until the connection ends, and whether it ended complete. */
  drain(): Promise<{ bytes: number; complete: boolean }>;
  destroy(): void;
}

function stalledReader(base: string, path: string, user: TestUser): Promise<StalledReader> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${path}`, { headers: user.headers, agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      const destroy = () => request.destroy();
      if (status !== 200) {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () =>
          resolve({ status, size: 0, body: Buffer.concat(parts).toString(), drain, destroy }),
        );
        return;
      }
      // The book's first bytes arrive, then nothing more is read.
      response.pause();

      function drain() {
        return new Promise<{ bytes: number; complete: boolean }>((done) => {
          let bytes = 0;
          response.on('data', (part: Buffer) => (bytes += part.byteLength));
          response.once('end', () => done({ bytes, complete: response.complete }));
          response.once('error', () => done({ bytes, complete: false }));
          response.once('aborted', () => done({ bytes, complete: false }));
          response.resume();
        });
      }
      resolve({ status, size: Number(response.headers['content-length']), drain, destroy });
    });
    request.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
  });
}

/** The whole answer, read as fast as it comes. */
async function readBook(base: string, path: string, user: TestUser) {
  // A connection per answer, so that closing the app waits for none kept alive.
  const response = await fetch(`${base}${path}`, { headers: { ...user.headers, connection: 'close' } });
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Files this process holds open in `dir` (Linux: the links in /proc/self/fd). */
async function openFilesIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(dir)) found.push(target);
  }
  return found;
}

const until = async (what: string, check: () => Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Nicht eingetreten: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.runIf(process.platform === 'linux')('Sitzungsmappe: slots per member, slow readers', () => {
  let t: TestApp | undefined;
  let readers: StalledReader[] = [];
  afterEach(async () => {
    for (const reader of readers) reader.destroy();
    readers = [];
    await t?.close();
    t = undefined;
  });

  /** A listening app with one meeting whose book is larger than the socket's buffers. */
  async function meeting(options: Parameters<typeof buildTestApp>[0] = {}) {
    t = await buildTestApp(options);
    const admin = await createUser(t, { roles: ['Admin'] });
    const member = async (firstname: string) =>
      createUser(t!, { roles: ['Vertreter'], firstname, lastname: 'Mitglied' });
    const document = await uploadDocument(t, admin, {
      title: 'Jahresabschluss',
      folderId: FOLDER.both,
      roles: ['Vertreter'],
      content: await bulkyPdf('JAHRESABSCHLUSS', BULK_BYTES),
    });
    const eventId = await createMeeting(t, admin, { roles: ['Vertreter'] });
    await putAgenda(t, admin, eventId, [{ title: 'Abschluss', file_ids: [document.id] }]);
    const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    return {
      t,
      base,
      path: `/api/v1/events/${eventId}/book.pdf`,
      slow: await member('Langsam'),
      other: await member('Andere'),
      books: join(t.config.DATA_DIR, 'tmp', 'books'),
    };
  }

  it('serves another member’s book while one member’s downloads stall; the second of them gets 429', async () => {
    // BOOK_CONCURRENCY 2: before decision 149 the slow member's two downloads held both slots.
    const m = await meeting({ env: { BOOK_CONCURRENCY: '2' }, bookLimits: { stallMs: 30_000 } });
    const first = await stalledReader(m.base, m.path, m.slow);
    readers.push(first);
    expect(first.status).toBe(200);
    const second = await stalledReader(m.base, m.path, m.slow);
    readers.push(second);
    expect(second.status).toBe(429);
    expect(JSON.parse(second.body!)).toEqual({ message: MEETING_MESSAGES.bookInProgress });

    const served = await readBook(m.base, m.path, m.other);
    expect(served.status).toBe(200);
    const book = await readPdf(served.bytes);
    expect(book.pages).toHaveLength(1 + 1 + 1);
    expect(book.pages[2]).toContain('Vertraulich – Andere Mitglied');

    // The stalled download is still open: its book waits in an open file without a name.
    expect(await readdir(m.books)).toEqual([]);
    expect(await openFilesIn(m.books)).toHaveLength(1);
    // The reader goes away: its file is closed and the member may ask again.
    first.destroy();
    await until('Datei geschlossen', async () => (await openFilesIn(m.books)).length === 0);
    expect((await readBook(m.base, m.path, m.slow)).status).toBe(200);
  }, 60_000);

  it('frees the build slot once the book is in its file: one slot, one stalled reader, another member served', async () => {
    const m = await meeting({ env: { BOOK_CONCURRENCY: '1' }, bookLimits: { stallMs: 30_000 } });
    const stalled = await stalledReader(m.base, m.path, m.slow);
    readers.push(stalled);
    expect(stalled.status).toBe(200);
    expect((await readBook(m.base, m.path, m.other)).status).toBe(200);
  }, 60_000);

  it('cuts off a download that takes no data for `stallMs`, freeing the member’s turn', async () => {
    const m = await meeting({ bookLimits: { stallMs: 1_500 } });
    const stalled = await stalledReader(m.base, m.path, m.slow);
    readers.push(stalled);
    expect(stalled.status).toBe(200);
    const started = Date.now();
    // The portal gives up on it: its file is closed (a paused client does not see the end yet).
    await until('Datei geschlossen', async () => (await openFilesIn(m.books)).length === 0);
    const after = Date.now() - started;
    expect(after).toBeGreaterThanOrEqual(1_000);
    expect(after).toBeLessThan(8_000);
    // Reading on, the client gets what was in the buffers, then the end of a cut-off answer.
    const drained = await stalled.drain();
    expect(drained.complete).toBe(false);
    expect(drained.bytes).toBeLessThan(stalled.size);
    // The member's turn is free again.
    // A reader that takes its data is not cut off, however long the whole download takes.
    const { status, bytes } = await readBook(m.base, m.path, m.slow);
    expect(status).toBe(200);
    expect(bytes.byteLength).toBeGreaterThan(BULK_BYTES);
  }, 60_000);
});

describe('Sitzungsmappe: temporary files', () => {
  let dataDir: string | undefined;
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    t = undefined;
    dataDir = undefined;
  });

  it('removes books a crash left in DATA_DIR/tmp/books at start', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'gremienportal-books-'));
    const books = join(dataDir, 'tmp', 'books');
    await mkdir(books, { recursive: true });
    await writeFile(join(books, 'c0ffee00-0000-4000-8000-000000000000.pdf'), 'halbe Sitzungsmappe');
    t = await buildTestApp({ env: { DATA_DIR: dataDir } });
    expect(await readdir(books)).toEqual([]);
  });
});
