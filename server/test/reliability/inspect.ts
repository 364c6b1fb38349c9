import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/db/schema.ts';

/** Looking at a portal's data from outside: its database and its storage folder. */

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

export interface Inspector {
  kysely: Kysely<Database>;
  close(): Promise<void>;
}

/**
 * Opens the portal's database next to (or after) the server process. SQLite is opened read-only,
 * so looking changes nothing a restart would see; `writable` is for deliberate changes.
 */
export function openInspector(
  target: { sqliteFile: string } | { databaseUrl: string },
  writable = false,
): Inspector {
  if ('databaseUrl' in target) {
    const pool = new pg.Pool({ connectionString: target.databaseUrl, max: 2 });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, close: () => kysely.destroy() };
  }
  const sqlite = new SQLite(target.sqliteFile, { readonly: !writable, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { kysely, close: () => kysely.destroy() };
}

/** What lies in a disk storage folder: objects under their keys and temporary leftovers. */
export async function storageContents(filesDir: string): Promise<{ objects: string[]; temp: string[] }> {
  const entries = await readdir(filesDir, { withFileTypes: true }).catch(() => []);
  const objects = entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  const temp = await readdir(join(filesDir, '.tmp')).catch(() => [] as string[]);
  return { objects: objects.sort(), temp };
}

/** A fresh, empty PostgreSQL database on the server of `baseUrl`; `drop` removes it again. */
export async function createPostgresDatabase(
  baseUrl: string,
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
