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
 * Meetings (decision 130) survive a backup and its restore: the agenda with its links, the answers,
 * the calendar feeds and the Protokoll's stored object (migration 0008's tables and columns).
 */

const MEETING_TABLES = ['agenda_items', 'agenda_item_files', 'event_attendance', 'calendar_feeds'] as const;

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function rowsOf(db: Db) {
  const tables: Record<string, unknown[]> = {};
  for (const table of MEETING_TABLES) {
    tables[table] = await db.kysely
      .selectFrom(table)
      .selectAll()
      .orderBy(table === 'agenda_item_files' ? 'item_id' : table === 'agenda_items' ? 'id' : 'user_id')
      .execute();
  }
  tables.events = await db.kysely
    .selectFrom('events')
    .select(['id', 'minutes_storage_key', 'minutes_size_bytes', 'minutes_sha256', 'reminder_sent_at'])
    .execute();
  return tables;
}

describe('backup and restore of meetings', () => {
  it('keeps the agenda, the answers, the calendar feeds and the Protokoll', async () => {
    const root = await mkdtemp(join(tmpdir(), 'gremienportal-meetings-'));
    roots.push(root);
    const dataDir = join(root, 'data');
    const db = openDatabase({ sqliteFile: join(dataDir, 'portal.sqlite') });
    await migrateToLatest(db);
    await seedBaseData(db, systemClock, { email: 'admin@example.org', password: 'Start-Passwort-123' });
    const storage = new DiskStorage(join(dataDir, 'files'));
    const content = Buffer.from('%PDF-1.4\n% Protokoll der Sitzung\n%%EOF\n');
    const minutes = await storage.put(Readable.from([content]), { maxBytes: 10_000 });
    const now = new Date().toISOString();
    const admin = await db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const event = await db.kysely
      .insertInto('events')
      .values({
        uid: `${newKey()}@portal.test`,
        sequence: 2,
        title: 'Aufsichtsratssitzung',
        start_at: '2027-03-10T17:00:00.000Z',
        end_at: '2027-03-10T19:00:00.000Z',
        location: 'Sitzungssaal',
        description: 'Ordentliche Sitzung',
        file_storage_key: null,
        file_download_key: null,
        file_format: null,
        file_mime_type: null,
        file_size_bytes: null,
        file_sha256: null,
        minutes_storage_key: minutes.key,
        minutes_download_key: newKey(),
        minutes_format: 'pdf',
        minutes_mime_type: 'application/pdf',
        minutes_size_bytes: minutes.size,
        minutes_sha256: minutes.sha256,
        minutes_published_at: now,
        reminder_sent_at: now,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = (parent: number | null, position: number, title: string) =>
      db.kysely
        .insertInto('agenda_items')
        .values({ event_id: event.id, parent_id: parent, position, title, description: '', presenter: '' })
        .returning('id')
        .executeTakeFirstOrThrow();
    const main = await item(null, 0, 'Berichte');
    const sub = await item(main.id, 0, 'Bericht des Vorstands');
    await db.kysely
      .insertInto('agenda_item_files')
      .values([
        { item_id: main.id, file_id: 4711, position: 0 },
        { item_id: sub.id, file_id: 4712, position: 0 },
      ])
      .execute();
    await db.kysely
      .insertInto('event_attendance')
      .values({
        event_id: event.id,
        user_id: admin.id,
        status: 'zugesagt',
        comment: 'Komme',
        answered_at: now,
      })
      .execute();
    await db.kysely
      .insertInto('calendar_feeds')
      .values({
        user_id: admin.id,
        token_hash: sha256(Buffer.from('token')),
        created_at: now,
        last_used_at: null,
      })
      .execute();
    const before = await rowsOf(db);
    await db.close();
    for (const table of MEETING_TABLES) expect(before[table], table).not.toEqual([]);

    const backup = join(root, 'sicherung');
    const manifest = await backupSqlite({ dataDir, target: backup });
    expect(manifest.objects.map((object) => object.key)).toContain(minutes.key);
    for (const table of MEETING_TABLES) expect(manifest.row_counts[table], table).toBe(before[table]!.length);

    const restoredDir = join(root, 'neu');
    await mkdir(restoredDir);
    await restoreSqlite({ source: backup, dataDir: restoredDir });
    expect(sha256(await readFile(join(restoredDir, 'files', minutes.key)))).toBe(minutes.sha256);
    const restored = openDatabase({ sqliteFile: join(restoredDir, 'portal.sqlite') });
    try {
      expect(await rowsOf(restored)).toEqual(before);
    } finally {
      await restored.close();
    }
  });
});
