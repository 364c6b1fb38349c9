// Over 300 lines: backup, restore, their CLI commands and the umask case share the portalData() fixture
// (migrated SQLite and stored objects); the restore cases read backups that fixture writes.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/database.ts';
import { migrationsFor } from '../../src/db/migrations/index.ts';
import { seedBaseData } from '../../src/db/seed.ts';
import { sha256 } from '../reliability/inspect.ts';
import { spawnServerScript } from '../reliability/portal-process.ts';
import { DiskStorage } from '../../src/storage/disk-storage.ts';
import { newKey } from '../../src/storage/object-keys.ts';
import { MANIFEST_FILE, OpsError, type BackupManifest } from '../../src/ops/backup-format.ts';
import { backupSqlite, POSTGRES_BACKUP_MESSAGE } from '../../src/ops/backup.ts';
import { POSTGRES_RESTORE_MESSAGE, restoreSqlite } from '../../src/ops/restore.ts';
import { loadSecretBox, SECRET_KEY_FILE } from '../../src/credentials/secret-box.ts';
import { SearchIndexer } from '../../src/search/indexer.ts';

/** A portal data folder with a migrated SQLite database, written the way the portal writes it. */
async function portalData() {
  const root = await mkdtemp(join(tmpdir(), 'gremienportal-ops-'));
  const dataDir = join(root, 'data');
  let db: Db | undefined = openDatabase({ sqliteFile: join(dataDir, 'portal.sqlite') });
  await migrateToLatest(db);
  await seedBaseData(db, systemClock, { email: 'admin@example.org', password: 'Start-Passwort-123' });
  const storage = new DiskStorage(join(dataDir, 'files'));
  const open = () => db ?? (db = openDatabase({ sqliteFile: join(dataDir, 'portal.sqlite') }));

  return {
    root,
    dataDir,
    filesDir: join(dataDir, 'files'),
    db: () => open().kysely,
    storage,
    /** Content first, then the row (as the files service does). */
    async addFile(content: Buffer = randomBytes(20_000 + Math.floor(Math.random() * 50_000))) {
      const stored = await storage.put(Readable.from([content]), { maxBytes: 10 * 1024 * 1024 });
      const now = new Date().toISOString();
      const row = await open()
        .kysely.insertInto('files')
        .values({
          folder_id: 4,
          title: `Dokument ${stored.key.slice(0, 6)}`,
          format: 'pdf',
          mime_type: 'application/pdf',
          size_bytes: stored.size,
          sha256: stored.sha256,
          storage_key: stored.key,
          download_key: newKey(),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, key: stored.key, sha256: stored.sha256, content };
    },
    /** The row commits, then the content goes. */
    async deleteFile(id: number) {
      const row = await open()
        .kysely.selectFrom('files')
        .select('storage_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      await open().kysely.deleteFrom('files').where('id', '=', id).execute();
      await storage.delete(row.storage_key);
    },
    /** A new object, the row switches to it, the old one goes. */
    async replaceFile(id: number, content: Buffer) {
      const row = await open()
        .kysely.selectFrom('files')
        .select('storage_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const stored = await storage.put(Readable.from([content]), { maxBytes: 10 * 1024 * 1024 });
      await open()
        .kysely.updateTable('files')
        .set({ storage_key: stored.key, sha256: stored.sha256, size_bytes: stored.size })
        .where('id', '=', id)
        .execute();
      await storage.delete(row.storage_key);
      return stored;
    },
    /** Stops "the portal": the last connection closes and checkpoints. */
    async stop() {
      await db?.close();
      db = undefined;
    },
  };
}

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});
async function setUp() {
  const data = await portalData();
  roots.push(data.root);
  return data;
}

describe('backup', () => {
  it('writes the database, exactly the objects its rows refer to, and a manifest with checksums', async () => {
    const data = await setUp();
    const files = [await data.addFile(), await data.addFile(), await data.addFile()];
    // Leftovers the backup must not take along: an object without a row and an upload in progress.
    await data.storage.put(Readable.from([randomBytes(1000)]), { maxBytes: 10_000 });
    await mkdir(join(data.filesDir, '.tmp'), { recursive: true });
    await writeFile(join(data.filesDir, '.tmp', 'halb.part'), 'halb');
    const target = join(data.root, 'sicherung');

    const manifest = await backupSqlite({ dataDir: data.dataDir, target });

    expect((await readdir(target)).sort()).toEqual(['files', 'manifest.json', 'portal.sqlite']);
    expect(JSON.parse(await readFile(join(target, MANIFEST_FILE), 'utf8'))).toEqual(manifest);
    expect(manifest).toMatchObject({ format: 'gremienportal-backup', version: 1 });
    expect(Date.parse(manifest.created_at)).not.toBeNaN();
    expect(manifest.database.migrations).toEqual(Object.keys(migrationsFor('sqlite')));
    expect(manifest.database.sha256).toBe(sha256(await readFile(join(target, 'portal.sqlite'))));
    const expected = files.map((f) => ({ key: f.key, size: f.content.length, sha256: f.sha256 }));
    expect(manifest.objects).toEqual(expected.sort((a, b) => a.key.localeCompare(b.key)));
    expect((await readdir(join(target, 'files'))).sort()).toEqual(files.map((f) => f.key).sort());
    for (const file of files) {
      expect(sha256(await readFile(join(target, 'files', file.key)))).toBe(file.sha256);
    }
    expect(manifest.row_counts).toMatchObject({ files: 3, roles: 4, folders: 4, users: 1 });

    // One self-contained, intact file.
    const copy = new SQLite(join(target, 'portal.sqlite'), { readonly: true });
    expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(copy.prepare('select count(*) from files').pluck().get()).toBe(3);
    copy.close();
  });

  it('also works while the portal is stopped', async () => {
    const data = await setUp();
    await data.addFile();
    await data.stop();
    const manifest = await backupSqlite({ dataDir: data.dataDir, target: join(data.root, 'sicherung') });
    expect(manifest.objects).toHaveLength(1);
  });

  it('takes a new snapshot when a change committed after the snapshot removed an object', async () => {
    const data = await setUp();
    const [kept, deleted, replaced] = [await data.addFile(), await data.addFile(), await data.addFile()];
    const newContent = randomBytes(30_000);
    const lines: string[] = [];
    let newKeyOfReplaced = '';
    const manifest = await backupSqlite({
      dataDir: data.dataDir,
      target: join(data.root, 'sicherung'),
      log: (line) => lines.push(line),
      afterSnapshot: async (attempt) => {
        if (attempt !== 1) return;
        // What the portal does meanwhile: a deletion and a replacement commit and remove content.
        await data.deleteFile(deleted.id);
        newKeyOfReplaced = (await data.replaceFile(replaced.id, newContent)).key;
      },
    });
    expect(lines).toEqual([
      '2 Datei(en) wurden während der Sicherung gelöscht; der Datenbankstand wird neu gesichert.',
    ]);
    expect(manifest.objects.map((o) => o.key).sort()).toEqual([kept.key, newKeyOfReplaced].sort());
    expect(manifest.objects.find((o) => o.key === newKeyOfReplaced)?.sha256).toBe(sha256(newContent));
    expect(manifest.row_counts.files).toBe(2);
    expect((await readdir(join(data.root, 'sicherung', 'files'))).sort()).toEqual(
      [kept.key, newKeyOfReplaced].sort(),
    );
    const copy = new SQLite(join(data.root, 'sicherung', 'portal.sqlite'), { readonly: true });
    expect(copy.prepare('select storage_key from files order by id').pluck().all()).toEqual([
      kept.key,
      newKeyOfReplaced,
    ]);
    copy.close();
  });

  it('fails loudly, and leaves no backup, when an object the database refers to is missing', async () => {
    const data = await setUp();
    await data.addFile();
    const lost = await data.addFile();
    await rm(join(data.filesDir, lost.key));
    const target = join(data.root, 'sicherung');
    const failure = backupSqlite({ dataDir: data.dataDir, target });
    await expect(failure).rejects.toBeInstanceOf(OpsError);
    await expect(failure).rejects.toThrow(`Die Datei ${lost.key} fehlt im Speicher`);
    expect(existsSync(target)).toBe(false);
  });

  it('fails when stored content does not match the checksum its row records', async () => {
    const data = await setUp();
    const file = await data.addFile();
    await writeFile(join(data.filesDir, file.key), randomBytes(file.content.length));
    const target = join(data.root, 'sicherung');
    await mkdir(target);
    await expect(backupSqlite({ dataDir: data.dataDir, target })).rejects.toThrow('Prüfsumme stimmt nicht');
    expect(await readdir(target)).toEqual([]);
  });

  it('refuses a target that is not empty or lies inside the data folder', async () => {
    const data = await setUp();
    const full = join(data.root, 'voll');
    await mkdir(full);
    await writeFile(join(full, 'alt.txt'), 'alt');
    await expect(backupSqlite({ dataDir: data.dataDir, target: full })).rejects.toThrow(
      `Das Sicherungsverzeichnis ${full} ist nicht leer.`,
    );
    expect(await readdir(full)).toEqual(['alt.txt']);
    await expect(
      backupSqlite({ dataDir: data.dataDir, target: join(data.dataDir, 'sicherung') }),
    ).rejects.toThrow('darf nicht im Datenverzeichnis');
    await expect(
      backupSqlite({ dataDir: join(data.root, 'leer'), target: join(data.root, 's') }),
    ).rejects.toThrow('Keine Datenbank gefunden');
  });
});

describe('restore', () => {
  async function backedUp() {
    const data = await setUp();
    const files = [await data.addFile(), await data.addFile()];
    const backup = join(data.root, 'sicherung');
    const manifest = await backupSqlite({ dataDir: data.dataDir, target: backup });
    return { data, files, backup, manifest };
  }

  it('restores into an empty data folder: the same database and the same files', async () => {
    const { data, files, backup, manifest } = await backedUp();
    const restored = join(data.root, 'neu');
    await mkdir(restored);
    expect(await restoreSqlite({ source: backup, dataDir: restored })).toEqual(manifest);
    expect((await readdir(restored)).sort()).toEqual(['files', 'portal.sqlite']);
    for (const file of files)
      expect(sha256(await readFile(join(restored, 'files', file.key)))).toBe(file.sha256);
    const db = new SQLite(join(restored, 'portal.sqlite'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.prepare('select count(*) from files').pluck().get()).toBe(2);
    db.close();
  });

  it('keeps the search index: a restored portal finds words inside its documents at once', async () => {
    const data = await setUp();
    const file = await data.addFile(Buffer.from('Bericht der Kassenprüfung im Dezember'));
    await data
      .db()
      .updateTable('search_texts')
      .set({ format: 'txt' })
      .where('item_id', '=', file.id)
      .execute();
    const db = openDatabase({ sqliteFile: join(data.dataDir, 'portal.sqlite') });
    const quiet = { warn: () => undefined, error: () => undefined };
    await new SearchIndexer({ db, clock: systemClock, storage: data.storage, logger: quiet }).drain();
    await db.close();
    const backup = join(data.root, 'mit-index');
    await backupSqlite({ dataDir: data.dataDir, target: backup });
    const restored = join(data.root, 'neu-mit-index');
    await mkdir(restored);
    await restoreSqlite({ source: backup, dataDir: restored });
    const copy = new SQLite(join(restored, 'portal.sqlite'), { readonly: true });
    const match = copy.prepare(`select rowid from search_fts where search_fts match '"kassenpruefung"'`);
    expect(match.pluck().all()).toEqual([file.id * 2]);
    copy.close();
  });

  it('carries the key of the secrets at rest along, so restored TOTP seeds stay readable', async () => {
    const data = await setUp();
    await data.addFile();
    const box = loadSecretBox({ DATA_DIR: data.dataDir });
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    const backup = join(data.root, 'mit-schluessel');
    const manifest = await backupSqlite({ dataDir: data.dataDir, target: backup });
    expect(manifest.secret_key).toEqual({
      size: 65,
      sha256: sha256(await readFile(join(data.dataDir, SECRET_KEY_FILE))),
    });
    const restored = join(data.root, 'neu-mit-schluessel');
    await mkdir(restored);
    await restoreSqlite({ source: backup, dataDir: restored });
    expect((await readdir(restored)).sort()).toEqual(['files', 'portal.sqlite', SECRET_KEY_FILE]);
    expect(loadSecretBox({ DATA_DIR: restored }).open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    // Without the key another one is made, and the sealed value cannot be opened with it.
    const elsewhere = join(data.root, 'ohne-schluessel');
    expect(() => loadSecretBox({ DATA_DIR: elsewhere }).open(sealed)).toThrow();
  });

  it('refuses a data folder that is not empty and leaves it as it was', async () => {
    const { data, backup } = await backedUp();
    await expect(restoreSqlite({ source: backup, dataDir: data.dataDir })).rejects.toThrow(
      `Das Datenverzeichnis ${data.dataDir} ist nicht leer.`,
    );
    expect((await readdir(data.dataDir)).sort()).toContain('portal.sqlite');
  });

  it('refuses a damaged backup and leaves the data folder empty', async () => {
    const { data, files, backup } = await backedUp();
    const path = join(backup, 'files', files[1]!.key);
    const bytes = await readFile(path);
    bytes[0] = bytes[0]! ^ 0xff;
    await writeFile(path, bytes);
    const restored = join(data.root, 'neu');
    await expect(restoreSqlite({ source: backup, dataDir: restored })).rejects.toThrow(
      'Prüfsumme stimmt nicht',
    );
    expect(await readdir(restored)).toEqual([]);

    bytes[0] = bytes[0]! ^ 0xff;
    await writeFile(path, bytes);
    await rm(join(backup, 'files', files[0]!.key));
    await expect(restoreSqlite({ source: backup, dataDir: restored })).rejects.toThrow(
      `In der Sicherung fehlt files/${files[0]!.key}.`,
    );
    expect(await readdir(restored)).toEqual([]);
  });

  it('refuses a folder without manifest and a backup of a newer portal', async () => {
    const { data, backup, manifest } = await backedUp();
    const restored = join(data.root, 'neu');
    await expect(restoreSqlite({ source: data.root, dataDir: restored })).rejects.toThrow(
      'ist keine vollständige Sicherung: manifest.json fehlt',
    );
    const newer: BackupManifest = {
      ...manifest,
      database: { ...manifest.database, migrations: [...manifest.database.migrations, '0099_zukunft'] },
    };
    await writeFile(join(backup, MANIFEST_FILE), JSON.stringify(newer));
    await expect(restoreSqlite({ source: backup, dataDir: restored })).rejects.toThrow(
      'Die Sicherung stammt von einer neueren Version des Portals (Migration 0099_zukunft)',
    );
    expect(existsSync(restored)).toBe(false);
  });
});

describe('backup and restore commands', () => {
  const run = async (args: string[], env: Record<string, string>) => {
    const command = spawnServerScript('src/cli.ts', args, { ...process.env, LOG_LEVEL: 'warn', ...env });
    const code = await command.exited;
    return { code, output: command.output() };
  };

  it(
    'point to pg_dump and pg_restore with PostgreSQL, and explain their usage',
    { timeout: 60_000 },
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'gremienportal-ops-cli-'));
      roots.push(root);
      const postgres = { DATABASE_URL: 'postgres://portal@127.0.0.1:1/portal', DATA_DIR: root };
      const [backup, restore, usage] = await Promise.all([
        run(['backup', join(root, 'sicherung')], postgres),
        run(['restore', join(root, 'sicherung')], postgres),
        run(['backup'], { DATABASE_URL: '', DATA_DIR: root }),
      ]);
      expect(backup).toEqual({ code: 1, output: `${POSTGRES_BACKUP_MESSAGE}\n` });
      expect(restore).toEqual({ code: 1, output: `${POSTGRES_RESTORE_MESSAGE}\n` });
      expect(usage).toEqual({ code: 1, output: 'Verwendung: npm run backup -- <verzeichnis>\n' });
      expect(existsSync(join(root, 'sicherung'))).toBe(false);
    },
  );
});

describe('backup and restore under a wide umask', () => {
  /** Every entry below `root` whose mode is not owner-only (0700 folders, 0600 files). */
  async function notOwnerOnly(root: string): Promise<string[]> {
    const wrong: string[] = [];
    const check = async (path: string, dir: boolean) => {
      const mode = (await stat(path)).mode & 0o777;
      if (mode !== (dir ? 0o700 : 0o600)) wrong.push(`${path} 0${mode.toString(8)}`);
    };
    await check(root, true);
    for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
      await check(join(entry.parentPath, entry.name), entry.isDirectory());
    }
    return wrong;
  }

  it('writes the backup and the restored data folder owner-only', async () => {
    const previous = process.umask(0o022);
    try {
      const data = await setUp();
      await data.addFile();
      const backup = join(data.root, 'sicherung');
      await backupSqlite({ dataDir: data.dataDir, target: backup });
      expect(await notOwnerOnly(backup)).toEqual([]);
      const restored = join(data.root, 'neu');
      await restoreSqlite({ source: backup, dataDir: restored });
      expect(await notOwnerOnly(restored)).toEqual([]);
    } finally {
      process.umask(previous);
    }
  });
});
