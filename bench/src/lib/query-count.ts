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
  const get = (url: string) =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  /**
   * The member's principal in the principal cache right now, so that no counted request pays for
   * resolving it: the cache keeps a token for a second, and a session's last-seen write empties it,
   * so on a slow machine a counted request could otherwise resolve it again (two more queries on
   * one side only). `GET /account` answers from the principal: it costs nothing once it is cached.
   */
  const primePrincipal = async () => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const before = counter.count;
      await get('/api/v1/account');
      if (counter.count === before) return;
    }
    throw new Error('Die Anmeldung des Mitglieds bleibt nicht im Zwischenspeicher');
  };
  const count = async (path: string) => {
    await primePrincipal();
    const before = counter.count;
    const res = await get(path);
    if (res.statusCode !== 200) throw new Error(`${path} antwortete ${res.statusCode}: ${res.body}`);
    return counter.count - before;
  };
  try {
    for (const path of paths) {
      // Cold: the first request after a change loads the folders; warm: answered from the cache.
      // A request first: the first one of the app loads what every later one shares.
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
