import { Readable } from 'node:stream';
import { HelperProcess } from '../helper-process.ts';
import type { BookPlan, BookSource, BookSummary, FromWorker, ToWorker } from './types.ts';

/*
 * Builds Sitzungsmappen away from the request thread (decisions 130, 144): each book in a helper
 * process with a heap limit and a deadline, at most `concurrency` at a time (further requests are
 * refused at once, the route answers 503 with Retry-After). The finished PDF flows to the response
 * one chunk at a time, as fast as the client takes it; the book's slot is held until its helper
 * has handed over the last byte.
 */

export interface BookLimits {
  /** Books built or being sent at the same time. */
  concurrency: number;
  /** V8 heap of one helper process. */
  maxMemoryMb: number;
  /** From the start until the book is composed (all documents read and copied). */
  timeoutMs: number;
  /** A stored PDF larger than this is listed as not inserted rather than read. */
  maxSourceBytes: number;
  /** Pages of inserted documents in one book. */
  maxPages: number;
  /** A download that takes no data for this long is ended (its slot freed). */
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
  /** The PDF; destroying it ends the build and frees its slot. */
  stream: Readable;
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
  private active = 0;
  private idle: { host: Host; timer: NodeJS.Timeout; gone: () => void }[] = [];
  private closed = false;

  constructor(limits: Partial<BookLimits> = {}) {
    this.limits = { ...DEFAULT_BOOK_LIMITS, ...limits };
  }

  /** Whether a book asked for now would be refused. */
  get full(): boolean {
    return this.active >= this.limits.concurrency;
  }

  /**
   * Composes the book; resolves once it is complete and its size known, with the stream of its
   * bytes. Rejects with BookBusyError at once when `concurrency` books are under way, and with
   * BookFailedError when no book could be made. A document whose reading ends the worker (heap,
   * deadline) is listed as not inserted and the book made again without it.
   */
  async build(plan: BookPlan, read: ReadSource): Promise<BuiltBook> {
    if (this.full) throw new BookBusyError();
    this.active += 1;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.active -= 1;
    };
    try {
      const skip: number[] = [];
      for (;;) {
        const result = await this.attempt(plan, read, skip, release);
        if ('built' in result) return result.built;
        if (result.culprit === undefined || skip.length >= MAX_CULPRITS) throw new BookFailedError();
        skip.push(result.culprit);
      }
    } catch (error) {
      release();
      throw error;
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
      // 4 instead of 16 MiB: 25 MiB less at the peak of a book of 20 × 20 pages, 4 % more time.
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

  private attempt(plan: BookPlan, read: ReadSource, skip: number[], release: () => void): Promise<Attempt> {
    const host = this.take();
    const { worker } = host;
    const send = (message: ToWorker) => worker.postMessage(message);
    const sendSource = (index: number, source: BookSource) => {
      if (!('bytes' in source)) return send({ type: 'source', index, failed: source.failed });
      send({ type: 'source', index, byteLength: source.bytes.byteLength });
      void worker.sendBytes(source.bytes);
    };
    return new Promise((resolve) => {
      let phase: 'building' | 'sending' | 'done' = 'building';
      let current: number | undefined;
      let stream: Readable | undefined;
      /** Bytes of the book the helper has still to send. */
      let left = 0;
      let stall: NodeJS.Timeout | undefined;
      const deadline = setTimeout(() => broken(), this.limits.timeoutMs);

      const detach = () => {
        clearTimeout(deadline);
        clearTimeout(stall);
        worker.off('message', onMessage);
        worker.off('exit', broken);
      };
      const discard = () => {
        detach();
        void worker.terminate();
      };
      /** The helper died or ran out of time: while building, the document it was reading is blamed. */
      function broken(): void {
        if (phase === 'building') {
          phase = 'done';
          discard();
          resolve({ failed: true, culprit: current });
        } else if (phase === 'sending') {
          phase = 'done';
          discard();
          release();
          stream!.destroy(new BookFailedError());
        }
      }
      const armStall = () => {
        clearTimeout(stall);
        stall = setTimeout(() => stream?.destroy(new BookFailedError()), this.limits.stallMs);
      };

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
            // Composing failed without a document to blame; while sending, the stream ends.
            if (phase !== 'building') return broken();
            phase = 'done';
            discard();
            return resolve({ failed: true });
          case 'built': {
            phase = 'sending';
            current = undefined;
            clearTimeout(deadline);
            const { pages, size, inserted } = message;
            left = size;
            stream = new Readable({
              read: () => {
                // After the last chunk the helper waits for its next book, not for `more`.
                if (phase !== 'sending') return;
                armStall();
                send({ type: 'more' });
              },
              destroy: (error, callback) => {
                if (phase === 'sending') {
                  phase = 'done';
                  discard();
                  release();
                }
                callback(error);
              },
            });
            armStall();
            return resolve({ built: { pages, size, inserted, stream } });
          }
          case 'chunk': {
            if (phase !== 'sending') return;
            left -= message.bytes.byteLength;
            // The last chunk frees the helper before it is pushed: a client that closes as soon as
            // it has every byte (curl does) destroys the stream, which would end a helper still
            // counted as sending.
            const last = left <= 0;
            if (last) {
              phase = 'done';
              detach();
              release();
              this.giveBack(host);
            }
            stream!.push(
              Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength),
            );
            if (last) stream!.push(null);
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
