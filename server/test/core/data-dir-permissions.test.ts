import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { TestClock } from '../../src/clock.ts';
import { configSchema } from '../../src/config.ts';
import type { TestApp } from '../support/build-test-app.ts';
import { createUser } from '../support/factories.ts';
import { createFolder, uploadFile } from '../support/files.fixtures.ts';

/** Every folder and file below `root` (itself included) with its permission bits. */
async function modes(root: string): Promise<{ path: string; dir: boolean; mode: number }[]> {
  const found = [{ path: root, dir: true, mode: (await stat(root)).mode & 0o777 }];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    found.push({ path, dir: entry.isDirectory(), mode: (await stat(path)).mode & 0o777 });
  }
  return found;
}

const octal = (mode: number) => `0${mode.toString(8)}`;

/** The app as `npm start` builds it: SQLite, disk storage and `.eml` files, all in DATA_DIR. */
async function startOn(dataDir: string, env: Record<string, string> = {}) {
  const config = configSchema.parse({
    ...env,
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    INITIAL_ADMIN_EMAIL: 'admin@example.org',
    INITIAL_ADMIN_PASSWORD: 'Start-Passwort-123',
    PUBLIC_URL: 'http://portal.test',
    // A test installation: the second factor is not this test's subject (decision 126).
    TWO_FACTOR_REQUIRED_ROLES: '',
  });
  const clock = new TestClock();
  const app = await buildApp({ config, clock, logger: false, startBackgroundJobs: false });
  await app.ready();
  const db = app.context.db;
  const t = { app, clock, config, db, dataDir } as unknown as TestApp;
  return {
    t,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

describe('DATA_DIR is owner-only whatever the umask', () => {
  let previousUmask: number;
  let parent: string;

  beforeAll(async () => {
    // The usual default that made everything world-readable.
    previousUmask = process.umask(0o022);
    parent = await mkdtemp(join(tmpdir(), 'gremienportal-perm-'));
  });
  afterAll(async () => {
    process.umask(previousUmask);
    await rm(parent, { recursive: true, force: true });
  });

  it('creates the folder, database, documents and mail files 0700 / 0600', async () => {
    const dataDir = join(parent, 'neu', 'daten');
    const { t, close } = await startOn(dataDir);
    try {
      const admin = await createUser(t, { roles: ['Admin'] });
      const folder = await createFolder(t, admin, { title: 'Protokolle 2026' });
      await uploadFile(t, admin, { title: 'Vertraulich', folderId: folder.id, roles: ['Aufsichtsrat'] });
      const forgot = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email: admin.email },
      });
      expect(forgot.statusCode).toBe(200);
      await t.app.context.mailSender.flush();
    } finally {
      await close();
    }

    const entries = await modes(dataDir);
    const names = entries.map((entry) => entry.path.slice(dataDir.length));
    // What the scenario must have produced, so the check below covers each kind.
    expect(names).toEqual(expect.arrayContaining(['/portal.sqlite', '/files', '/files/.tmp', '/mail']));
    expect(names.filter((name) => /^\/files\/[^/.]+$/.test(name))).toHaveLength(1);
    expect(names.filter((name) => name.startsWith('/mail/') && name.endsWith('.eml'))).toHaveLength(1);
    const wrong = entries
      .filter((entry) => entry.mode !== (entry.dir ? 0o700 : 0o600))
      .map((entry) => `${entry.path} ${octal(entry.mode)}`);
    expect(wrong).toEqual([]);
    // The parents created along the way are not readable by others either.
    expect(octal((await stat(join(parent, 'neu'))).mode & 0o777)).toBe('0700');
  });

  it('with DOWNLOAD_OFFLOAD=nginx lets the group reach the documents and nothing else', async () => {
    const dataDir = join(parent, 'nginx', 'daten');
    // A document stored before the offload was switched on.
    const before = await startOn(dataDir);
    const admin = await createUser(before.t, { roles: ['Admin'] });
    await uploadFile(before.t, admin, { title: 'Vorher', folderId: 4, roles: ['Vertreter'] });
    await before.close();
    const { t, close } = await startOn(dataDir, { DOWNLOAD_OFFLOAD: 'nginx' });
    try {
      // The same database: the admin's session from before still works.
      await uploadFile(t, admin, { title: 'Nachher', folderId: 4, roles: ['Vertreter'] });
    } finally {
      await close();
    }
    const entries = await modes(dataDir);
    const expected = (path: string, dir: boolean) => {
      const name = path.slice(dataDir.length);
      if (name === '' || name === '/files') return 0o710;
      if (/^\/files\/[A-Za-z0-9_-]{16,64}$/.test(name)) return 0o640;
      return dir ? 0o700 : 0o600;
    };
    const documents = entries.filter((entry) => expected(entry.path, entry.dir) === 0o640);
    expect(documents).toHaveLength(2);
    const wrong = entries
      .filter((entry) => entry.mode !== expected(entry.path, entry.dir))
      .map((entry) => `${entry.path} ${octal(entry.mode)}`);
    expect(wrong).toEqual([]);
    expect(entries.map((entry) => entry.path.slice(dataDir.length))).toEqual(
      expect.arrayContaining(['/portal.sqlite', '/secret.key', '/files/.tmp']),
    );

    // Switched off again: DATA_DIR is owner-only, so the group reaches nothing.
    const off = await startOn(dataDir);
    await off.close();
    expect(octal((await stat(dataDir)).mode & 0o777)).toBe('0700');
  });

  it('makes an existing, world-readable DATA_DIR and database owner-only at start', async () => {
    const dataDir = join(parent, 'alt');
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    await writeFile(join(dataDir, 'portal.sqlite'), '', { mode: 0o644 });
    await chmod(join(dataDir, 'portal.sqlite'), 0o644);
    const { close } = await startOn(dataDir);
    await close();
    expect(octal((await stat(dataDir)).mode & 0o777)).toBe('0700');
    expect(octal((await stat(join(dataDir, 'portal.sqlite'))).mode & 0o777)).toBe('0600');
  });
});
