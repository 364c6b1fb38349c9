import { closeSync, fdatasync, fstatSync, openSync } from 'node:fs';
import { promisify } from 'node:util';

/**
 * When the commits made so far are on the disk (decision 140). SQLite runs with `synchronous =
 * NORMAL`: a commit reaches the write-ahead log through the page cache and returns without an
 * fsync, so the event loop no longer waits for the disk. An answer, or a mail, that depends on a
 * commit waits for `untilDurable()`: one `fdatasync` of the log on libuv's thread pool, shared by
 * every commit that came before it (a group commit). What nobody was told may still be lost by a
 * power cut; what anybody was told was on the disk first, as with `synchronous = FULL`.
 */
export interface Durability {
  /** True while a commit is not yet known to be on the disk. */
  readonly pending: boolean;
  /** Resolves once every commit made before the call is on the disk. */
  untilDurable(): Promise<void>;
}

/** PostgreSQL, and SQLite in memory: a commit is durable (or never will be) when it returns. */
export const alwaysDurable: Durability = { pending: false, untilDurable: () => Promise.resolve() };

export type SyncFile = (fd: number) => Promise<void>;
const fdatasyncAsync: SyncFile = promisify(fdatasync);

/** The commits of one SQLite connection and the fsyncs of its write-ahead log (`<file>-wal`). */
export class DurableCommits implements Durability {
  #committed = 0;
  #durable = 0;
  #flush: Promise<void> | undefined;
  #fd: number | undefined;

  constructor(
    private readonly walFile: string,
    private readonly syncFile: SyncFile = fdatasyncAsync,
  ) {}

  /** A commit has returned (a transaction's COMMIT, or a write outside a transaction). */
  committed(): void {
    this.#committed += 1;
  }

  get pending(): boolean {
    return this.#durable < this.#committed;
  }

  async untilDurable(): Promise<void> {
    const target = this.#committed;
    // A flush that started before our commit may not hold it: wait for it, then start another.
    while (this.#durable < target) {
      this.#flush ??= this.#flushOnce().finally(() => {
        this.#flush = undefined;
      });
      await this.#flush;
    }
  }

  /** Closes the log's descriptor; a later flush opens it again. */
  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  async #flushOnce(): Promise<void> {
    const upTo = this.#committed;
    const fd = this.#logFd();
    // No log file: SQLite checkpointed and removed it, which syncs the database file itself.
    if (fd !== undefined) await this.syncFile(fd);
    if (upTo > this.#durable) this.#durable = upTo;
  }

  /**
   * The log's descriptor, opened once. fsync works on the file, not the descriptor, so any
   * descriptor of it flushes what SQLite wrote. SQLite deletes the log only when the last
   * connection closes; should it have been replaced meanwhile (no links left), it is opened anew.
   */
  #logFd(): number | undefined {
    if (this.#fd !== undefined && fstatSync(this.#fd).nlink === 0) this.close();
    if (this.#fd === undefined) {
      try {
        this.#fd = openSync(this.walFile, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    }
    return this.#fd;
  }
}
