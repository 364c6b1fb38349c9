import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, Kysely, Migrator, PostgresDialect, SqliteDialect, type Driver } from 'kysely';
import pg from 'pg';
import { makePrivateDirSync, makePrivateFileSync } from '../storage/private-files.ts';
import type { Database } from './schema.ts';
import type { Dialect } from './dialect.ts';
import { migrationsFor } from './migrations/index.ts';
import { invalidatingKysely, PrincipalCache } from './principal-cache.ts';
import { alwaysDurable, DurableCommits, type Durability, type SyncFile } from './durable-commits.ts';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Bearer tokens resolved a moment ago; emptied by every write through `kysely` (decision 137). */
  principals: PrincipalCache<unknown>;
  /** Answers and mails that depend on a commit wait until it is on the disk (decision 140). */
  durability: Durability;
  close(): Promise<void>;
}

/** How long a resolved bearer token is reused at most (decision 137). */
export const PRINCIPAL_CACHE_MS = 1_000;

function withPrincipalCache(
  kysely: Kysely<Database>,
  dialect: Dialect,
  durability: Durability & { close?(): void } = alwaysDurable,
): Db {
  const principals = new PrincipalCache<unknown>(PRINCIPAL_CACHE_MS);
  const cached = invalidatingKysely(kysely, principals);
  const close = async () => {
    // A command-line run ends here: what it committed is on the disk before it says so.
    await durability.untilDurable();
    await cached.destroy();
    durability.close?.();
  };
  return { kysely: cached, dialect, principals, durability, close };
}

// int8 (counts, sizes) as numbers: every value the portal stores stays far below 2^53.
pg.types.setTypeParser(20, (value) => Number(value));

export interface OpenDatabaseOptions {
  /** `postgres://…` for PostgreSQL; otherwise the SQLite file path (or `:memory:`). */
  databaseUrl?: string;
  sqliteFile: string;
  onPoolError?: (error: Error) => void;
  /** How the SQLite write-ahead log is flushed (tests slow it down); `fdatasync` otherwise. */
  syncFile?: SyncFile;
}

/**
 * SQLite ends a transaction by itself on some errors (a full disk: SQLITE_FULL). Kysely's ROLLBACK
 * then fails with "no transaction is active", and that error would hide the real one.
 *
 * Transactions begin IMMEDIATE: a service reads, checks permissions and then writes in one
 * transaction, and that check must still hold at the write. A deferred BEGIN takes the write lock
 * only at the first write, so another process on the same file (the CLI, a second instance) could
 * commit in between; IMMEDIATE takes it at the start (waiting up to busy_timeout), which gives the
 * same guarantee as PostgreSQL's `FOR UPDATE` on the rows checked.
 */
/** How the portal begins a transaction on SQLite; it writes nothing by itself. */
const BEGIN = 'begin immediate';

class SqliteKeepingErrors extends SqliteDialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly commits?: DurableCommits,
  ) {
    super({ database: sqlite });
  }
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw(BEGIN));
    };
    const commit = driver.commitTransaction.bind(driver);
    driver.commitTransaction = async (connection) => {
      await commit(connection);
      this.commits?.committed();
    };
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.sqlite.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

/** Distinct statements kept; the portal has a few hundred, generated IN lists add more. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew, which cost as much as running it: about a
 * tenth of an authenticated read (decision 137). The same SQL now reuses its prepared statement
 * (better-sqlite3 re-prepares by itself after a schema change). A statement still being iterated
 * (a streamed export) is busy; a query with the same SQL meanwhile gets a fresh statement. The
 * oldest entry goes when the cache is full.
 */
function reusePreparedStatements(sqlite: SQLite.Database, commits?: DurableCommits): void {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  // Kysely runs a statement right after preparing it: a write outside a transaction commits then
  // (`begin immediate` counts as a write to SQLite, but commits nothing).
  const prepared = (statement: SQLite.Statement) => {
    if (commits && !statement.readonly && !sqlite.inTransaction && statement.source !== BEGIN) {
      commits.committed();
    }
    return statement;
  };
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return prepared(cached);
    const statement = prepared(prepare(source));
    if (!cached) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
}

export function openDatabase(options: OpenDatabaseOptions): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client whose connection the server ended (restart, failover) must not crash the
    // process; the pool replaces it on the next query.
    pool.on('error', (error) => options.onPoolError?.(error));
    return withPrincipalCache(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), 'postgres');
  }
  if (options.sqliteFile !== ':memory:') {
    makePrivateDirSync(dirname(options.sqliteFile));
    // Created owner-only before SQLite opens it: SQLite would use 0644, and its -wal and -shm
    // files copy the database file's mode.
    makePrivateFileSync(options.sqliteFile);
  }
  const sqlite = new SQLite(options.sqliteFile);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL: a commit returns without waiting for the disk; whatever depends on it waits for
  // `durability` instead, which flushes the log off the event loop (decision 140). SQLite keeps
  // the database consistent after a power cut in this mode; checkpoints still sync.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const commits =
    options.sqliteFile === ':memory:'
      ? undefined
      : new DurableCommits(`${options.sqliteFile}-wal`, options.syncFile);
  reusePreparedStatements(sqlite, commits);
  return withPrincipalCache(
    new Kysely<Database>({ dialect: new SqliteKeepingErrors(sqlite, commits) }),
    'sqlite',
    commits,
  );
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrationsFor(db.dialect) },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} fehlgeschlagen: ${String(error)}`);
  }
}
