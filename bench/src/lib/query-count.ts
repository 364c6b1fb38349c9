import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { join } from 'node:path';
import { buildApp } from '../../../server/src/app.ts';
import { loadConfig } from '../../../server/src/config.ts';
import { openDatabase } from '../../../server/src/db/database.ts';

/** Counts every statement Kysely sends to the database. */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count += 1;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/**
 * The portal's own app in this process, on the data set's database, with every statement counted:
 * how many queries one request costs, whatever the number of items it returns.
 */
export async function countQueries(
  dataDir: string,
  token: string,
  paths: string[],
): Promise<Map<string, number>> {
  const counter = new QueryCounter();
  const db = openDatabase({ sqliteFile: join(dataDir, 'portal.sqlite') });
  const app = await buildApp({
    config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    db: { ...db, kysely: db.kysely.withPlugin(counter) },
    startBackgroundJobs: false,
    logger: false,
  });
  const counts = new Map<string, number>();
  try {
    for (const path of paths) {
      // The second request is counted: the first may warm caches.
      await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${token}` } });
      const before = counter.count;
      const res = await app.inject({
        method: 'GET',
        url: path,
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.statusCode !== 200) throw new Error(`${path} antwortete ${res.statusCode}: ${res.body}`);
      counts.set(path, counter.count - before);
    }
  } finally {
    await app.close();
    await db.close();
  }
  return counts;
}
