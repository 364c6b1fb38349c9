import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { DEFAULT_LIMITS, extractText, isExtractable, type ExtractResult } from './extract/index.ts';
import { fold } from './fold.ts';

/** A lease outlasts the longest extraction (30 s) by far; it only runs out when its instance died. */
const LEASE_MS = 2 * 60_000;
/** An item whose extraction was cut off this often (its instance died each time) is given up. */
const MAX_ATTEMPTS = 3;

type Kind = 'file' | 'event';
const rowidOf = (kind: Kind, id: number) => (kind === 'file' ? id * 2 : id * 2 + 1);

/** What the indexer needs of the portal (the server's context, or the CLI's for `reindex`). */
export type IndexerContext = Pick<AppContext, 'db' | 'clock' | 'storage'> & {
  logger: { warn(details: object, message: string): void; error(details: object, message: string): void };
};

async function readAll(
  ctx: IndexerContext,
  key: string,
  maxBytes: number,
): Promise<Uint8Array | 'too_large'> {
  const size = await ctx.storage.size(key);
  if (size === null) throw new Error('Gespeicherter Inhalt fehlt');
  if (size > maxBytes) return 'too_large';
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.storage.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Reads the text of documents and event information files in the background (decision 128,
 * decision 128). Rows of `search_texts` marked `pending` by the database's triggers are leased
 * one at a time with a conditional update, so each is extracted once across instances; a lease
 * left by a dead instance runs out and the item is taken up again. The result is stored only if
 * the item still has the content that was read (a replacement meanwhile queues it anew).
 */
export class SearchIndexer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly ctx: IndexerContext,
    private readonly options: { intervalMs?: number; onItem?: () => void } = {},
  ) {}

  start(): void {
    const tick = () => {
      void this.drain()
        .catch((error: unknown) => this.ctx.logger.error({ err: error }, 'Textindex unterbrochen'))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.options.intervalMs ?? 1_000);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Works off every due item; returns how many. Safe to call concurrently. */
  drain(): Promise<number> {
    this.running ??= this.work().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async work(): Promise<number> {
    let done = 0;
    for (;;) {
      const item = await this.lease();
      if (!item) return done;
      await this.extractOne(item);
      done += 1;
      this.options.onItem?.();
    }
  }

  /** The next due item, leased to this instance; undefined when there is none. */
  private async lease() {
    const k = this.ctx.db.kysely;
    for (;;) {
      const now = this.ctx.clock.now().toISOString();
      const next = await k
        .selectFrom('search_texts')
        .select(['kind', 'item_id', 'content_key', 'format', 'attempts'])
        // The queue's partial index covers exactly these states.
        .where('state', 'in', ['pending', 'working'])
        .where((eb) =>
          eb.or([
            eb('state', '=', 'pending'),
            eb.and([eb('state', '=', 'working'), eb('locked_until', '<', now)]),
          ]),
        )
        .orderBy('updated_at')
        .limit(1)
        .executeTakeFirst();
      if (!next) return undefined;
      const leased = await k
        .updateTable('search_texts')
        .set({
          state: 'working',
          attempts: next.attempts + 1,
          locked_until: new Date(this.ctx.clock.now().getTime() + LEASE_MS).toISOString(),
        })
        .where('kind', '=', next.kind)
        .where('item_id', '=', next.item_id)
        .where('content_key', '=', next.content_key)
        .where((eb) =>
          eb.or([
            eb('state', '=', 'pending'),
            eb.and([eb('state', '=', 'working'), eb('locked_until', '<', now)]),
          ]),
        )
        .executeTakeFirst();
      if (Number(leased.numUpdatedRows) === 1) return { ...next, attempts: next.attempts + 1 };
    }
  }

  private async extractOne(item: {
    kind: Kind;
    item_id: number;
    content_key: string;
    format: string;
    attempts: number;
  }): Promise<void> {
    let result: ExtractResult;
    if (item.attempts > MAX_ATTEMPTS) result = { state: 'failed', reason: 'damaged' };
    else if (!isExtractable(item.format)) result = { state: 'failed', reason: 'unsupported' };
    else {
      try {
        const bytes = await readAll(this.ctx, item.content_key, DEFAULT_LIMITS.maxInputBytes);
        result =
          bytes === 'too_large'
            ? { state: 'failed', reason: 'too_large' }
            : await extractText({ bytes }, item.format);
      } catch (error) {
        this.ctx.logger.warn({ err: error, kind: item.kind, id: item.item_id }, 'Text nicht lesbar');
        result = { state: 'failed', reason: 'damaged' };
      }
    }
    await this.store(item, result);
  }

  private async store(item: { kind: Kind; item_id: number; content_key: string }, result: ExtractResult) {
    const text = result.state === 'done' ? result.text : '';
    const state = result.state === 'failed' ? 'failed' : text.trim() === '' ? 'empty' : 'done';
    const folded = state === 'done' ? fold(text) : null;
    const postgres = this.ctx.db.dialect === 'postgres';
    await this.ctx.db.kysely.transaction().execute(async (trx) => {
      const stored = await trx
        .updateTable('search_texts')
        .set({
          state,
          reason: result.state === 'failed' ? result.reason : null,
          text: state === 'done' ? text : null,
          folded: postgres ? folded : null,
          locked_until: null,
          updated_at: this.ctx.clock.now().toISOString(),
        })
        .where('kind', '=', item.kind)
        .where('item_id', '=', item.item_id)
        .where('content_key', '=', item.content_key)
        .where('state', '=', 'working')
        .executeTakeFirst();
      // Replaced or deleted meanwhile: the new content has its own turn.
      if (Number(stored.numUpdatedRows) !== 1) return;
      await trx
        .updateTable('change_counters')
        .set((eb) => ({ value: eb('value', '+', 1) }))
        .where('name', '=', 'search')
        .execute();
      if (postgres) return;
      const rowid = rowidOf(item.kind, item.item_id);
      await sql`delete from search_fts where rowid = ${rowid}`.execute(trx);
      if (folded) await sql`insert into search_fts (rowid, body) values (${rowid}, ${folded})`.execute(trx);
    });
  }
}
