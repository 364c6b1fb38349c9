import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { HelperProcess } from '../processes/helper-process.ts';
import { BookFile } from './book-file.ts';
import type { BookPlan, BookSource, BookSummary, FromWorker, ToWorker } from './types.ts';

/*
 * Builds Sitzungsmappen away from the request thread (decisions 130, 144): each book in a helper
 * process with a heap limit and a deadline, at most `concurrency` at a time (further requests are
 * refused at once, the route answers 503 with Retry-After). The finished PDF is written to a
 * temporary file, one chunk from the helper at a time, and the book's slot and helper are free
 * once it is complete (decision 149): the download is read from that file, as slowly as the
 * client likes, and holds no slot.
 */

export interface BookLimits {
  /** Books built at the same time (a book being downloaded no longer counts, decision 149). */
  concurrency: number;
  /** V8 heap of one helper process. */
  maxMemoryMb: number;
  /** From the start until the book is composed and in its temporary file. */
  timeoutMs: number;
  /** A stored PDF larger than this is listed as not inserted rather than read. */
  maxSourceBytes: number;
  /** Pages of inserted documents in one book. */
  maxPages: number;
  /**
   * A download whose client takes no data for this long is ended: the route's idle timeout on the
   * reply's socket (decision 149).
   */
  stallMs: number;
  /** An idle helper ends after this long. */
  idleMs: number;
}

export const DEFAULT_BOOK_LIMITS: BookLimits = {
  concurrency: 2,
  maxMemoryMb: 512,
  timeoutMs: 120_000,
  maxSourceBytes: 64 * 1024 ** 2,
  maxPages: 5_000,
  stallMs: 60_000,
  idleMs: 60_000,
};

/** A helper ends after this many books: nothing a document left in its heap lasts long. */
const RECYCLE_AFTER = 50;
/** Documents that may end a helper before the book is given up. */
const MAX_CULPRITS = 2;

export class BookBusyError extends Error {}
export class BookFailedError extends Error {}

export interface BuiltBook extends BookSummary {
  /** The PDF, read from its temporary file; destroying it closes (and so removes) the file. */
  stream: Readable;
}

export interface BookBuilderOptions {
  /**
   * Where finished books wait for their download, a folder made owner-only (default: a folder of
   * its own inside the system's, never that shared folder itself); the portal's is
   * `DATA_DIR/tmp/books`, swept at start (`sweepBookFiles`).
   */
  tmpDir?: string;
}

/**
 * Reads the content of the plan's document `index`, at most `maxBytes`; the helper gets a copy.
 */
export type ReadSource = (index: number, maxBytes: number) => Promise<BookSource>;

type Attempt = { built: BuiltBook } | { failed: true; culprit?: number };

interface Host {
  worker: HelperProcess;
  books: number;
}

export class BookBuilder {
  readonly limits: BookLimits;
  private readonly tmpDir: string;
  private active = 0;
  private idle: { host: Host; timer: NodeJS.Timeout; gone: () => void }[] = [];
  private closed = false;

  constructor(limits: Partial<BookLimits> = {}, options: BookBuilderOptions = {}) {
    this.limits = { ...DEFAULT_BOOK_LIMITS, ...limits };
    this.tmpDir = options.tmpDir ?? join(tmpdir(), 'gremienportal-books');
  }

  /** Whether a book asked for now would be refused. */
  get full(): boolean {
    return this.active >= this.limits.concurrency;
  }

  /**
   * Composes the book and writes it to a temporary file; resolves once it is complete there, with
   * the stream of its bytes (the slot is free by then). Rejects with BookBusyError at once when
   * `concurrency` books are under way, and with BookFailedError when no book could be made. A
   * document whose reading ends the worker (heap, deadline) is listed as not inserted and the book
   * made again without it.
   */
  async build(plan: BookPlan, read: ReadSource): Promise<BuiltBook> {
    if (this.full) throw new BookBusyError();
    this.active += 1;
    try {
      const skip: number[] = [];
      for (;;) {
        const result = await this.attempt(plan, read, skip);
        if ('built' in result) return result.built;
        if (result.culprit === undefined || skip.length >= MAX_CULPRITS) throw new BookFailedError();
        skip.push(result.culprit);
      }
    } finally {
      this.active -= 1;
    }
  }

  /** Ends idle helpers; books under way finish. */
  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle;
    this.idle = [];
    await Promise.all(
      idle.map(({ host, timer, gone }) => {
        clearTimeout(timer);
        host.worker.off('exit', gone);
        return host.worker.terminate();
      }),
    );
  }

  private take(): Host {
    const idle = this.idle.pop();
    if (idle) {
      clearTimeout(idle.timer);
      idle.host.worker.off('exit', idle.gone);
      return idle.host;
    }
    const worker = new HelperProcess(import.meta.url, 'book.worker', {
      maxMemoryMb: this.limits.maxMemoryMb,
      stackSizeMb: 4,
      // 4 instead of V8's 16 MiB: a lower peak for a little more time (decision 170).
      semiSpaceMb: 4,
    }).unref();
    return { worker, books: 0 };
  }

  private giveBack(host: Host): void {
    host.books += 1;
    if (this.closed || host.books >= RECYCLE_AFTER || this.idle.length >= this.limits.concurrency) {
      void host.worker.terminate();
      return;
    }
    const drop = () => {
      this.idle = this.idle.filter((entry) => entry.host !== host);
    };
    const timer = setTimeout(() => {
      drop();
      host.worker.off('exit', drop);
      void host.worker.terminate();
    }, this.limits.idleMs);
    timer.unref();
    // A helper that ends while idle is never handed a book.
    host.worker.once('exit', drop);
    this.idle.push({ host, timer, gone: drop });
  }

  private attempt(plan: BookPlan, read: ReadSource, skip: number[]): Promise<Attempt> {
    const host = this.take();
    const { worker } = host;
    const send = (message: ToWorker) => worker.postMessage(message);
    const sendSource = (index: number, source: BookSource) => {
      if (!('bytes' in source)) return send({ type: 'source', index, failed: source.failed });
      send({ type: 'source', index, byteLength: source.bytes.byteLength });
      void worker.sendBytes(source.bytes);
    };
    return new Promise((resolve) => {
      let phase: 'building' | 'writing' | 'done' = 'building';
      let current: number | undefined;
      let summary: BookSummary | undefined;
      let file: BookFile | undefined;
      /** Bytes of the book the helper has still to send. */
      let left = 0;
      /** Writes to the file, one after the other. */
      let writing: Promise<void> = Promise.resolve();
      const deadline = setTimeout(() => broken(), this.limits.timeoutMs);

      const detach = () => {
        clearTimeout(deadline);
        worker.off('message', onMessage);
        worker.off('exit', broken);
      };
      const discard = () => {
        detach();
        void worker.terminate();
      };
      /** The book cannot be made: its file (if any) goes, and the helper with it unless it is done. */
      const fail = (outcome: Attempt) => {
        if (phase === 'done') return;
        phase = 'done';
        discard();
        // After the file's pending writes: closing it under them would fail them, not end them.
        void writing.finally(() => file?.discard());
        resolve(outcome);
      };
      /** The helper died or ran out of time: while building, the document it was reading is blamed. */
      function broken(): void {
        fail(phase === 'building' ? { failed: true, culprit: current } : { failed: true });
      }

      const onMessage = (message: FromWorker) => {
        switch (message.type) {
          case 'need': {
            current = message.index;
            void read(message.index, this.limits.maxSourceBytes)
              .catch((): BookSource => ({ failed: 'missing' }))
              .then((source) => {
                if (phase !== 'building') return;
                sendSource(message.index, source);
              });
            return;
          }
          case 'failed':
            // Composing failed without a document to blame.
            return phase === 'building' ? fail({ failed: true }) : broken();
          case 'built': {
            phase = 'writing';
            current = undefined;
            const { pages, size, inserted } = message;
            summary = { pages, size, inserted };
            left = size;
            // The first chunk is asked for once the file is open.
            BookFile.create(this.tmpDir).then(
              (created) => {
                if (phase !== 'writing') return void created.discard();
                file = created;
                send({ type: 'more' });
              },
              () => fail({ failed: true }),
            );
            return;
          }
          case 'chunk': {
            if (phase !== 'writing' || !file) return;
            left -= message.bytes.byteLength;
            // The chunk that completes the book frees the helper at once: it sends nothing after it.
            const last = left <= 0;
            if (last) {
              detach();
              this.giveBack(host);
            }
            const book = file;
            writing = writing
              .then(() => book.write(message.bytes))
              .then(
                () => {
                  if (phase !== 'writing') return;
                  if (!last) return send({ type: 'more' });
                  phase = 'done';
                  clearTimeout(deadline);
                  resolve({ built: { ...summary!, stream: book.stream() } });
                },
                () => {
                  // A full disk, say: the helper (given back already if this was the last chunk) lives on.
                  if (last) {
                    phase = 'done';
                    void book.discard();
                    resolve({ failed: true });
                  } else fail({ failed: true });
                },
              );
            return;
          }
        }
      };
      worker.on('message', onMessage);
      worker.on('exit', broken);
      send({ type: 'build', plan, limits: { maxPages: this.limits.maxPages, skip: [...skip] } });
    });
  }
}
