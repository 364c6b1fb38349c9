import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.ts';
import { migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { seedBaseData } from '../../src/db/seed.ts';
import { backupSqlite } from '../../src/ops/backup.ts';
import { restoreSqlite } from '../../src/ops/restore.ts';
import { hashToken, newToken } from '../../src/credentials/tokens.ts';

/** API-Schlüssel (decision 136, migration 0011) survive a backup and its restore, hash and all. */
const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

describe('backup and restore of API-Schlüssel', () => {
  it('keeps every key with its hash, scopes, validity and last use', async () => {
    const root = await mkdtemp(join(tmpdir(), 'gremienportal-keys-'));
    roots.push(root);
    const dataDir = join(root, 'data');
    const db = openDatabase({ sqliteFile: join(dataDir, 'portal.sqlite') });
    await migrateToLatest(db);
    await seedBaseData(db, systemClock, { email: 'admin@example.org', password: 'Start-Passwort-123' });
    const admin = await db.kysely.selectFrom('users').select('id').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('api_keys')
      .values([
        {
          user_id: admin.id,
          name: 'Mitgliederverwaltung',
          token_hash: hashToken(`gpk_${newToken()}`),
          scopes: 'nutzer:lesen,nutzer:schreiben',
          created_at: now,
          expires_at: '2027-11-27T00:00:00.000Z',
          last_used_at: now,
        },
        {
          user_id: admin.id,
          name: 'Archiv',
          token_hash: hashToken(`gpk_${newToken()}`),
          scopes: 'inhalte:lesen',
          created_at: now,
          expires_at: '2027-05-27T00:00:00.000Z',
          last_used_at: null,
        },
      ])
      .execute();
    const rows = (d: typeof db) => d.kysely.selectFrom('api_keys').selectAll().orderBy('id').execute();
    const before = await rows(db);
    await db.close();

    const backup = join(root, 'sicherung');
    const manifest = await backupSqlite({ dataDir, target: backup });
    expect(manifest.row_counts.api_keys).toBe(2);
    const restoredDir = join(root, 'neu');
    await mkdir(restoredDir);
    await restoreSqlite({ source: backup, dataDir: restoredDir });
    const restored = openDatabase({ sqliteFile: join(restoredDir, 'portal.sqlite') });
    try {
      expect(await rows(restored)).toEqual(before);
    } finally {
      await restored.close();
    }
  });
});
