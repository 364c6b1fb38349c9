import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { systemClock } from '../clock.ts';
import { SearchIndexer } from '../search/indexer.ts';
import { storageFromConfig } from '../storage/from-config.ts';
import { S3Storage } from '../storage/s3-storage.ts';

const count = new Intl.NumberFormat('de-DE');

/**
 * `npm run cli -- reindex` (decision 128): reads the text of every document and event information
 * file again, with progress. Resumable: a run cut off leaves its rest queued, and the next run
 * (or the server's indexer) goes on with it instead of starting over.
 */
export async function reindex(config: Config, db: Db, write: (line: string) => void): Promise<void> {
  const k = db.kysely;
  const open = await k
    .selectFrom('search_texts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', 'in', ['pending', 'working'])
    .executeTakeFirstOrThrow();
  if (Number(open.n) > 0) {
    write(
      `${count.format(Number(open.n))} Dokumente warten noch aus einem früheren Lauf; es geht dort weiter.`,
    );
  } else {
    await k
      .updateTable('search_texts')
      .set({ state: 'pending', attempts: 0, reason: null, locked_until: null })
      .execute();
  }
  const total = Number(
    (
      await k
        .selectFrom('search_texts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('state', 'in', ['pending', 'working'])
        .executeTakeFirstOrThrow()
    ).n,
  );
  const storage = storageFromConfig(config);
  let done = 0;
  const started = Date.now();
  const logger = {
    warn: (_details: object, message: string) => write(`Warnung: ${message}`),
    error: (_details: object, message: string) => write(`Fehler: ${message}`),
  };
  const indexer = new SearchIndexer(
    { db, clock: systemClock, storage, logger },
    {
      onItem: () => {
        done += 1;
        if (done % 100 === 0 || done === total) {
          const seconds = (Date.now() - started) / 1000;
          write(
            `${count.format(done)} von ${count.format(total)} gelesen (${count.format(Math.round(done / seconds))} je Sekunde)`,
          );
        }
      },
    },
  );
  try {
    await indexer.drain();
  } finally {
    if (storage instanceof S3Storage) storage.close();
  }
  const states = await k
    .selectFrom('search_texts')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('state')
    .execute();
  const of = (state: string) => Number(states.find((row) => row.state === state)?.n ?? 0);
  write(
    `Fertig: ${count.format(of('done'))} durchsuchbar, ${count.format(of('empty'))} ohne Text, ` +
      `${count.format(of('failed'))} nicht lesbar.`,
  );
}
