import { sql } from 'kysely';
import { join } from 'node:path';
import { buildApp } from '../../../server/src/app.ts';
import { loadConfig } from '../../../server/src/config.ts';
import { openDatabase } from '../../../server/src/db/database.ts';
import { QueryCounter } from '../../../server/src/db/query-counter.ts';

/**
 * The portal's own app in this process, on the data set's database, with every statement counted:
 * how many queries one request costs, whatever the number of items it returns.
 */
export async function countQueries(
  dataDir: string,
  token: string,
  paths: string[],
): Promise<Map<string, { cold: number; warm: number }>> {
  const counter = new QueryCounter();
  const db = openDatabase({ sqliteFile: join(dataDir, 'portal.sqlite') });
  const app = await buildApp({
    config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    db: { ...db, kysely: db.kysely.withPlugin(counter) },
    startBackgroundJobs: false,
    logger: false,
  });
  const counts = new Map<string, { cold: number; warm: number }>();
  const count = async (path: string) => {
    const before = counter.count;
    const res = await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode !== 200) throw new Error(`${path} antwortete ${res.statusCode}: ${res.body}`);
    return counter.count - before;
  };
  try {
    for (const path of paths) {
      // Cold: the first request after a change loads the folders; warm: answered from the cache.
      // A request first, so one-off work (the session's last-seen time) is not counted.
      await count(path);
      await db.kysely
        .updateTable('folders')
        .set({ title: sql`title` })
        .where('id', '=', 1)
        .execute();
      counts.set(path, { cold: await count(path), warm: await count(path) });
    }
  } finally {
    await app.close();
    await db.close();
  }
  return counts;
}
