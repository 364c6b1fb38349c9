import { closeSync, fstatSync, openSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, migrateToLatest, type Db } from '../../src/db/database.ts';
import { DurableCommits } from '../../src/db/durable-commits.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createRoleUsers } from '../support/factories.ts';
import { createFolder, uploadFile } from '../support/files.fixtures.ts';

/**
 * Decision 140: SQLite commits without an fsync on the event loop; every answer and every mail
 * waits until the commits before it are on the disk, flushed by one shared `fdatasync` of the log.
 */

/** A flush the test releases by hand, recording which file each one was for. */
class HeldSyncs {
  readonly inodes: number[] = [];
  private waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  private holding = true;
  readonly syncFile = (fd: number) =>
    new Promise<void>((resolve, reject) => {
      this.inodes.push(fstatSync(fd).ino);
      if (this.holding) this.waiting.push({ resolve, reject });
      else resolve();
    });
  /** From now on every flush finishes at once (closing the database flushes too). */
  stopHolding(): void {
    this.holding = false;
    this.release();
  }
  hold(): void {
    this.holding = true;
  }
  get held(): number {
    return this.waiting.length;
  }
  release(): void {
    for (const flush of this.waiting.splice(0)) flush.resolve();
  }
  fail(): void {
    for (const flush of this.waiting.splice(0)) flush.reject(new Error('EIO'));
  }
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `promise` has settled after the event loop has run everything it could. */
async function isDone(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i += 1) await settle();
  return done;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gremienportal-durable-'));
  dirs.push(dir);
  return dir;
}

/** A log file (absent with `content` null) and its commits, flushed through held syncs. */
async function heldLog(content: string | null = 'log') {
  const wal = join(await tempDir(), 'db-wal');
  if (content !== null) writeFileSync(wal, content);
  const syncs = new HeldSyncs();
  return { wal, syncs, commits: new DurableCommits(wal, syncs.syncFile) };
}

/** Until a flush is held (the code under test has asked for one), 2 s at most. */
async function untilHeld(syncs: HeldSyncs): Promise<void> {
  for (let i = 0; i < 200 && syncs.held === 0; i += 1) await new Promise((r) => setTimeout(r, 10));
}

describe('DurableCommits', () => {
  it('flushes nothing while nothing was committed', async () => {
    const { syncs, commits } = await heldLog(null);
    expect(commits.pending).toBe(false);
    await commits.untilDurable();
    expect(syncs.held).toBe(0);
  });

  it('answers every waiting caller with one flush, and only once it is done', async () => {
    const { wal, syncs, commits } = await heldLog();
    for (let i = 0; i < 5; i += 1) commits.committed();
    expect(commits.pending).toBe(true);
    const waiting = Promise.all([1, 2, 3].map(() => commits.untilDurable()));
    expect(await isDone(waiting)).toBe(false);
    expect(syncs.held).toBe(1);
    syncs.release();
    await waiting;
    expect(commits.pending).toBe(false);
    expect(syncs.inodes).toEqual([statSync(wal).ino]);
    commits.close();
  });

  it('does not count a commit made during a flush as flushed by it', async () => {
    const { syncs, commits } = await heldLog();
    commits.committed();
    const first = commits.untilDurable();
    await settle();
    commits.committed();
    const second = commits.untilDurable();
    syncs.release();
    await first;
    expect(await isDone(second)).toBe(false);
    expect(commits.pending).toBe(true);
    expect(syncs.held).toBe(1);
    syncs.release();
    await second;
    expect(commits.pending).toBe(false);
    commits.close();
  });

  it('reports a failed flush to its callers and tries again for the next one', async () => {
    const { syncs, commits } = await heldLog();
    commits.committed();
    const failing = commits.untilDurable();
    await settle();
    syncs.fail();
    await expect(failing).rejects.toThrow('EIO');
    expect(commits.pending).toBe(true);
    const retry = commits.untilDurable();
    await settle();
    syncs.release();
    await retry;
    expect(commits.pending).toBe(false);
    commits.close();
  });

  it('flushes a log that was replaced, not the deleted one', async () => {
    const { wal, syncs, commits } = await heldLog('old');
    commits.committed();
    const first = commits.untilDurable();
    await settle();
    syncs.release();
    await first;
    unlinkSync(wal);
    // Keep the old inode's number from being reused by the new file.
    const keep = openSync(join(wal, '..', 'other'), 'w');
    writeFileSync(wal, 'new');
    commits.committed();
    const second = commits.untilDurable();
    await settle();
    syncs.release();
    await second;
    expect(syncs.inodes).toEqual([syncs.inodes[0], statSync(wal).ino]);
    expect(syncs.inodes[1]).not.toBe(syncs.inodes[0]);
    closeSync(keep);
    commits.close();
  });

  it('counts a missing log as on the disk: SQLite synced the database when it removed it', async () => {
    const { syncs, commits } = await heldLog(null);
    commits.committed();
    await commits.untilDurable();
    expect(syncs.held).toBe(0);
    expect(commits.pending).toBe(false);
  });
});

describe('SQLite commits and the write-ahead log', () => {
  let db: Db | undefined;
  let syncs: HeldSyncs | undefined;
  let app: TestApp | undefined;
  afterEach(async () => {
    syncs?.stopHolding();
    await app?.close();
    await db?.close();
    app = undefined;
    db = undefined;
  });

  /** A test app on SQLite whose flushes are held; what its start committed is on the disk. */
  async function heldApp(): Promise<{ t: TestApp; held: HeldSyncs }> {
    const held = (syncs = new HeldSyncs());
    held.stopHolding();
    const t = (app = await buildTestApp({
      db: openDatabase({ sqliteFile: join(await tempDir(), 'portal.sqlite'), syncFile: held.syncFile }),
      env: { DATABASE_URL: '' },
    }));
    await t.db.durability.untilDurable();
    held.hold();
    return { t, held };
  }

  async function open(): Promise<{ db: Db; syncs: HeldSyncs; file: string }> {
    const file = join(await tempDir(), 'portal.sqlite');
    syncs = new HeldSyncs();
    syncs.stopHolding();
    db = openDatabase({ sqliteFile: file, syncFile: syncs.syncFile });
    await migrateToLatest(db);
    // Migrations committed; start each case with nothing pending.
    await db.durability.untilDurable();
    syncs.hold();
    syncs.inodes.length = 0;
    return { db, syncs, file };
  }

  it('runs with synchronous = NORMAL and counts writes and commits, not reads or rollbacks', async () => {
    const { db, syncs, file } = await open();
    const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db.kysely);
    expect(rows[0]?.synchronous).toBe(1);

    await db.kysely.selectFrom('users').selectAll().execute();
    expect(db.durability.pending).toBe(false);

    await db.kysely
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('roles').values({ name: 'Probe' }).execute();
        throw new Error('zurück');
      })
      .catch(() => undefined);
    expect(db.durability.pending).toBe(false);

    await db.kysely.insertInto('roles').values({ name: 'Probe' }).execute();
    expect(db.durability.pending).toBe(true);
    const flushed = db.durability.untilDurable();
    await settle();
    syncs.release();
    await flushed;
    expect(syncs.inodes).toEqual([statSync(`${file}-wal`).ino]);

    await db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('roles').set({ name: 'Probe 2' }).where('name', '=', 'Probe').execute();
      expect(db.durability.pending).toBe(false);
    });
    expect(db.durability.pending).toBe(true);
  });

  it('holds the answer to a sign-in until its session is on the disk', async () => {
    const { t, held } = await heldApp();
    const answer = t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'admin@example.org', password: 'Start-Passwort-123' },
    });
    await untilHeld(held);
    expect(held.held).toBe(1);
    expect(await isDone(answer)).toBe(false);
    held.release();
    expect((await answer).statusCode).toBe(200);

    // A read with nothing pending goes out without a flush.
    const before = held.inodes.length;
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health?x=1' });
    expect(health.statusCode).toBeLessThan(500);
    expect(held.inodes.length).toBe(before);

    // A flush that fails: the answer reports the error instead of the sign-in.
    const failing = t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'admin@example.org', password: 'Start-Passwort-123' },
    });
    await untilHeld(held);
    held.fail();
    const failed = await failing;
    expect(failed.statusCode).toBe(500);
    expect(failed.body).not.toContain('access_token');
  });

  it('hands a mail to the transport only once what it reports is on the disk', async () => {
    const { t, held } = await heldApp();
    held.stopHolding();
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: 'admin@example.org' },
    });
    expect(asked.statusCode).toBe(200);
    await t.runJobs();
    await t.db.durability.untilDurable();

    // The outbox row is written; hold the next flush and watch the transport.
    held.hold();
    const sending = t.flushMail();
    await untilHeld(held);
    expect(held.held).toBe(1);
    expect(await isDone(sending)).toBe(false);
    expect(t.mail.sent).toHaveLength(0);
    held.stopHolding();
    await sending;
    expect(t.mail.sent).toHaveLength(1);
  });

  it('sends no byte of a download before its audit entry is on the disk', async () => {
    const { t, held } = await heldApp();
    held.stopHolding();
    const { admin } = await createRoleUsers(t);
    const folderId = (await createFolder(t, admin, { folder_id: 4, title: 'Bereiche' })).id;
    const pdf = await uploadFile(t, admin, { title: 'Lagebericht', folderId, roles: ['Vertreter'] });
    await t.db.durability.untilDurable();

    held.hold();
    const download = t.app.inject({
      method: 'GET',
      url: `/api/v1/download/${pdf.external}`,
      headers: admin.headers,
    });
    await untilHeld(held);
    expect(held.held).toBe(1);
    expect(await isDone(download)).toBe(false);
    held.stopHolding();
    const answer = await download;
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('%PDF');
  });
});
