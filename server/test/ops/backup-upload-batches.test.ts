import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/database.ts';
import { seedBaseData } from '../../src/db/seed.ts';
import { backupSqlite } from '../../src/ops/backup.ts';
import { restoreSqlite } from '../../src/ops/restore.ts';

/**
 * Upload batches (decision 182, migration 0013) survive a backup and its restore: an open batch
 * with the mails it still owes, to be completed after the restore, and a completed one, which
 * keeps refusing late documents.
 */
const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function rowsOf(db: Db) {
  return {
    upload_batches: await db.kysely.selectFrom('upload_batches').selectAll().orderBy('id').execute(),
    upload_batch_notices: await db.kysely
      .selectFrom('upload_batch_notices')
      .selectAll()
      .orderBy('batch_id')
      .orderBy('user_id')
      .orderBy('file_id')
      .execute(),
  };
}

describe('backup and restore of upload batches', () => {
  it('keeps open and completed batches and the mails they owe', async () => {
    const root = await mkdtemp(join(tmpdir(), 'gremienportal-batches-'));
    roots.push(root);
    const dataDir = join(root, 'data');
    const db = openDatabase({ sqliteFile: join(dataDir, 'portal.sqlite') });
    await migrateToLatest(db);
    await seedBaseData(db, systemClock, { email: 'admin@example.org', password: 'Start-Passwort-123' });
    const admin = await db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const [open, completed] = [randomUUID(), randomUUID()];
    await db.kysely
      .insertInto('upload_batches')
      .values([
        {
          id: open,
          created_by: admin.id,
          created_at: now,
          last_file_at: now,
          files: 2,
          completed_at: null,
          mails: 0,
        },
        {
          id: completed,
          created_by: null,
          created_at: now,
          last_file_at: now,
          files: 1,
          completed_at: now,
          mails: 4,
        },
      ])
      .execute();
    await db.kysely
      .insertInto('upload_batch_notices')
      .values([
        { batch_id: open, user_id: admin.id, file_id: 7 },
        { batch_id: open, user_id: admin.id, file_id: 8 },
      ])
      .execute();
    const before = await rowsOf(db);
    await db.close();

    const backup = join(root, 'sicherung');
    const manifest = await backupSqlite({ dataDir, target: backup });
    expect(manifest.row_counts.upload_batches).toBe(2);
    expect(manifest.row_counts.upload_batch_notices).toBe(2);
    const restoredDir = join(root, 'neu');
    await mkdir(restoredDir);
    await restoreSqlite({ source: backup, dataDir: restoredDir });
    const restored = openDatabase({ sqliteFile: join(restoredDir, 'portal.sqlite') });
    try {
      expect(await rowsOf(restored)).toEqual(before);
    } finally {
      await restored.close();
    }
  });
});
