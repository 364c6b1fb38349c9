import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/database.ts';
import { seedBaseData } from '../../src/db/seed.ts';
import { backupSqlite } from '../../src/ops/backup.ts';
import { restoreSqlite } from '../../src/ops/restore.ts';
import { DiskStorage } from '../../src/storage/disk-storage.ts';
import { newKey } from '../../src/storage/object-keys.ts';
import { sha256 } from '../reliability/inspect.ts';

/**
 * Neu für Sie, Kenntnisnahme and Benachrichtigungen (decision 131) survive a backup and its restore:
 * migration 0009's tables and the columns it added to `users` and `files`.
 */

/** Each table with the column its rows are read in order of. */
const ORDER = {
  file_reads: 'file_id',
  acknowledgements: 'file_id',
  acknowledgement_reminders: 'file_id',
  notification_queue: 'id',
  notification_digests: 'id',
} as const;
const NEWS_TABLES = Object.keys(ORDER) as (keyof typeof ORDER)[];

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function rowsOf(db: Db) {
  const tables: Record<string, unknown[]> = {};
  for (const table of NEWS_TABLES) {
    tables[table] = await db.kysely
      .selectFrom(table)
      .selectAll()
      .orderBy(ORDER[table] as never)
      .execute();
  }
  tables.users = await db.kysely
    .selectFrom('users')
    .select(['id', 'news_read_at', 'news_version', 'notify_files', 'notify_events'])
    .orderBy('id')
    .execute();
  tables.files = await db.kysely
    .selectFrom('files')
    .select(['id', 'content_at', 'acknowledgement_required', 'acknowledgement_due', 'acknowledgement_since'])
    .orderBy('id')
    .execute();
  return tables;
}

describe('backup and restore of read state, Kenntnisnahme and notifications', () => {
  it('keeps reads, confirmations, reminders, queued notifications, digests and the settings', async () => {
    const root = await mkdtemp(join(tmpdir(), 'gremienportal-news-'));
    roots.push(root);
    const dataDir = join(root, 'data');
    const db = openDatabase({ sqliteFile: join(dataDir, 'portal.sqlite') });
    await migrateToLatest(db);
    await seedBaseData(db, systemClock, { email: 'admin@example.org', password: 'Start-Passwort-123' });
    const storage = new DiskStorage(join(dataDir, 'files'));
    const content = Buffer.from('%PDF-1.4\n% Einladung\n%%EOF\n');
    const stored = await storage.put(Readable.from([content]), { maxBytes: 10_000 });
    const now = new Date().toISOString();
    const admin = await db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
    await db.kysely
      .updateTable('users')
      .set({ news_read_at: now, news_version: 7, notify_files: 'woechentlich', notify_events: 'nie' })
      .where('id', '=', admin.id)
      .execute();
    const file = await db.kysely
      .insertInto('files')
      .values({
        folder_id: 4,
        title: 'Einladung',
        format: 'pdf',
        mime_type: 'application/pdf',
        size_bytes: stored.size,
        sha256: stored.sha256,
        storage_key: stored.key,
        download_key: newKey(),
        created_at: now,
        updated_at: now,
        content_at: now,
        content_by_label: 'Admin',
        restored_from: null,
        acknowledgement_required: 1,
        acknowledgement_due: '2027-01-15',
        acknowledgement_since: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.kysely
      .insertInto('file_reads')
      .values({ user_id: admin.id, file_id: file.id, read_at: now, opened_at: now })
      .execute();
    await db.kysely
      .insertInto('acknowledgements')
      .values({ file_id: file.id, user_id: admin.id, confirmed_at: now })
      .execute();
    await db.kysely
      .insertInto('acknowledgement_reminders')
      .values({ file_id: file.id, sent_at: now })
      .execute();
    await db.kysely
      .insertInto('notification_queue')
      .values({ user_id: admin.id, kind: 'file', object_id: file.id, action: 'created', queued_at: now })
      .execute();
    await db.kysely
      .insertInto('notification_digests')
      .values({ user_id: admin.id, cadence: 'weekly', period: '2026-11-23', items: 3, created_at: now })
      .execute();
    const before = await rowsOf(db);
    await db.close();
    for (const table of NEWS_TABLES) expect(before[table], table).toHaveLength(1);

    const backup = join(root, 'sicherung');
    const manifest = await backupSqlite({ dataDir, target: backup });
    expect(manifest.objects.map((object) => object.key)).toContain(stored.key);
    for (const table of NEWS_TABLES) expect(manifest.row_counts[table], table).toBe(1);

    const restoredDir = join(root, 'neu');
    await mkdir(restoredDir);
    await restoreSqlite({ source: backup, dataDir: restoredDir });
    expect(sha256(await readFile(join(restoredDir, 'files', stored.key)))).toBe(stored.sha256);
    const restored = openDatabase({ sqliteFile: join(restoredDir, 'portal.sqlite') });
    try {
      const after = await rowsOf(restored);
      expect(after).toEqual(before);
      expect(after.users).toContainEqual({
        id: admin.id,
        news_read_at: now,
        news_version: 7,
        notify_files: 'woechentlich',
        notify_events: 'nie',
      });
    } finally {
      await restored.close();
    }
  });
});
