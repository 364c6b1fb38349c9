import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { DiskStorage } from '../../../src/storage/disk-storage.ts';
import type { ByteRange, FileStorage } from '../../../src/storage/file-storage.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import {
  createMeeting,
  fetchBook,
  FOLDER,
  markedPdf,
  putAgenda,
  uploadDocument,
} from '../../support/book.fixtures.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { readPdf } from '../../support/pdf-reader.ts';

/** Disk storage whose reads of one object wait until the test lets them go. */
class GatedStorage implements FileStorage {
  private gates = new Map<string, { reached: () => void; open: Promise<void> }>();
  constructor(private readonly inner: FileStorage) {}

  /** The next read of `key` waits for `release`; `reached` resolves when it began. */
  hold(key: string) {
    let release!: () => void;
    let reached!: () => void;
    const open = new Promise<void>((resolve) => (release = resolve));
    const began = new Promise<void>((resolve) => (reached = resolve));
    this.gates.set(key, { reached, open });
    return { reached: began, release };
  }

  put: FileStorage['put'] = (source, options) => this.inner.put(source, options);
  size = (key: string) => this.inner.size(key);
  delete = (key: string) => this.inner.delete(key);
  sweep: FileStorage['sweep'] = (isReferenced, olderThan) => this.inner.sweep(isReferenced, olderThan);
  async get(key: string, range?: ByteRange): Promise<Readable> {
    const gate = this.gates.get(key);
    if (gate) {
      this.gates.delete(key);
      gate.reached();
      await gate.open;
    }
    return this.inner.get(key, range);
  }
}

/** The Sitzungsmappe under pressure: the pool's limit, a stalled document, a book that cannot be made. */
describe('Sitzungsmappe: limits and failures', () => {
  let t: TestApp | undefined;
  let filesDir: string | undefined;
  afterEach(async () => {
    await t?.close();
    if (filesDir) await rm(filesDir, { recursive: true, force: true });
    t = undefined;
    filesDir = undefined;
  });

  /** An app on gated storage with one meeting: item 1 with two PDFs of 2 and 3 pages. */
  async function meeting(options: Parameters<typeof buildTestApp>[0] = {}) {
    filesDir = await mkdtemp(join(tmpdir(), 'gremienportal-book-'));
    const storage = new GatedStorage(new DiskStorage(filesDir));
    t = await buildTestApp({ ...options, storage });
    const admin = await createUser(t, { roles: ['Admin'] });
    const member: TestUser = await createUser(t, {
      roles: ['Vertreter'],
      firstname: 'Vera',
      lastname: 'Vertreterin',
    });
    const upload = async (title: string, marker: string, pages: number) =>
      uploadDocument(t!, admin, {
        title,
        folderId: FOLDER.both,
        roles: ['Vertreter'],
        content: await markedPdf(marker, pages),
      });
    const first = await upload('Erstes', 'ERSTES', 2);
    const second = await upload('Zweites', 'ZWEITES', 3);
    const eventId = await createMeeting(t, admin, { roles: ['Vertreter'] });
    await putAgenda(t, admin, eventId, [{ title: 'Berichte', file_ids: [first.id, second.id] }]);
    const keyOf = async (id: number) =>
      (
        await t!.db.kysely
          .selectFrom('files')
          .select('storage_key')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).storage_key;
    return {
      t,
      storage,
      member,
      eventId,
      keys: { first: await keyOf(first.id), second: await keyOf(second.id) },
    };
  }

  it('refuses a book beyond the pool’s limit with 503, a German message and Retry-After', async () => {
    const m = await meeting({ env: { BOOK_CONCURRENCY: '1' } });
    const other = await createUser(m.t, { roles: ['Vertreter'] });
    const gate = m.storage.hold(m.keys.first);
    const running = fetchBook(m.t, m.member, m.eventId);
    await gate.reached;
    const refused = await fetchBook(m.t, other, m.eventId);
    expect(refused.res.statusCode).toBe(503);
    expect(refused.res.json()).toEqual({ message: MEETING_MESSAGES.bookBusy });
    expect(refused.res.headers['retry-after']).toBe('5');
    // The same member waits for their own book first (decision 149).
    const again = await fetchBook(m.t, m.member, m.eventId);
    expect(again.res.statusCode).toBe(429);
    expect(again.res.json()).toEqual({ message: MEETING_MESSAGES.bookInProgress });
    gate.release();
    const done = await running;
    expect(done.res.statusCode).toBe(200);
    expect((await readPdf(done.bytes)).pages).toHaveLength(1 + 1 + 2 + 3);
    // The slot and the member's turn are free again once the first book has been sent.
    expect((await fetchBook(m.t, m.member, m.eventId)).res.statusCode).toBe(200);
    expect((await fetchBook(m.t, other, m.eventId)).res.statusCode).toBe(200);
  });

  it('lists a document whose reading outlasts the deadline and builds the book without it', async () => {
    const m = await meeting({ bookLimits: { timeoutMs: 8_000 } });
    // A first book starts the worker, so the deadline below measures the reading, not the start.
    expect((await fetchBook(m.t, m.member, m.eventId)).res.statusCode).toBe(200);
    const gate = m.storage.hold(m.keys.second);
    const { res, bytes } = await fetchBook(m.t, m.member, m.eventId);
    gate.release();
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    const book = await readPdf(bytes);
    expect(book.pages).toHaveLength(1 + 1 + 2 + 1);
    expect(book.pages.at(-1)).toContain('Zweites (PDF) – konnte nicht eingefügt werden');
    expect(book.pages.join('\n')).not.toContain('ZWEITES');
  }, 40_000);

  it('answers 503 with a German message, never 500, when no book can be made', async () => {
    const m = await meeting({ bookLimits: { timeoutMs: 1 } });
    const { res } = await fetchBook(m.t, m.member, m.eventId);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: MEETING_MESSAGES.bookFailed });
    const recorded = await m.t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('actor_id', '=', m.member.id)
      .execute();
    expect(recorded).toEqual([]);
  });

  it('makes a book of titles and names in any script: unknown characters become “?”', async () => {
    const m = await meeting();
    const admin = await createUser(m.t, { roles: ['Admin'] });
    const member = await createUser(m.t, {
      roles: ['Vertreter'],
      firstname: 'Zoë',
      lastname: 'Łukasz-王 🎉',
    });
    const title = 'Sitzung 🎉 会议 Собрание „Jahresabschluss“ – €';
    const eventId = await createMeeting(m.t, admin, { roles: ['Vertreter'], title, location: 'Saal 😀 ✓' });
    const pdf = await uploadDocument(m.t, admin, {
      title: 'Anlage 📎 תקציב',
      folderId: FOLDER.both,
      roles: ['Vertreter'],
      content: await markedPdf('ANLAGE', 1),
    });
    await putAgenda(m.t, admin, eventId, [
      { title: 'Begrüßung 👋 ﷺ', presenter: 'Ο Πρόεδρος', file_ids: [pdf.id] },
    ]);
    // Stored before today's input rules: direction marks, a zero-width space, a control character, a tab.
    await m.t.db.kysely
      .updateTable('agenda_items')
      .set({ title: 'Begrüßung 👋 ﷺ\u202Eabc\u202C\u200B\u0007\tEnde' })
      .where('event_id', '=', eventId)
      .execute();
    const { res, bytes } = await fetchBook(m.t, member, eventId);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent(`Sitzungsmappe – ${title} – 10.03.2027.pdf`)}`,
    );
    const book = await readPdf(bytes);
    expect(book.pages).toHaveLength(3);
    for (const page of book.pages) expect(page).toContain('Vertraulich – Zoë Łukasz-? ? – ');
    expect(book.pages[0]).toContain('Sitzung ? ?? Собрание\n„Jahresabschluss“ – €');
    expect(book.pages[0]).toContain('1 Tagesordnungspunkt · 1 Dokument mit 1 Seite');
    expect(book.pages[0]).toContain('Saal ? x');
    expect(book.pages[1]).toContain('Vortrag: Ο Πρόεδρος');
    expect(book.pages[2]).toContain('TOP 1 – Begrüßung ? ?abc Ende · Anlage ? ????');
    // Bookmarks are Unicode text strings: they keep the characters, without controls.
    expect(book.outline[2]).toMatchObject({ page: 2 });
    expect(book.outline[2]!.title).toContain('1 Begrüßung 👋 ﷺ');
    expect(book.outline[2]!.children[0]).toMatchObject({ title: 'Anlage 📎 תקציב' });
  });
});
