import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, readdir, rename, rm } from 'node:fs/promises';
import { relative, isAbsolute } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type SQLite from 'better-sqlite3';
import { z } from 'zod';
import { PRIVATE_FILE_MODE } from '../storage/private-files.ts';
import { referencedObjectsSql } from '../db/referenced-objects.ts';

/**
 * The backup folder written by `backup` and read by `restore` (decision 095):
 *
 *   manifest.json   what the backup holds, with checksums; written last, so a folder
 *                   without it is not a complete backup
 *   portal.sqlite   the database, a consistent snapshot (SQLite online backup)
 *   files/<key>     every stored object the snapshot refers to, and nothing else
 */

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'portal.sqlite';
export const FILES_DIR = 'files';
export const BACKUP_FORMAT = 'gremienportal-backup';
export const BACKUP_VERSION = 1;

const KEY_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const sha256Field = z.string().regex(/^[0-9a-f]{64}$/);
const sizeField = z.number().int().nonnegative();

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  /** Version of this layout; `restore` reads only versions it knows. */
  version: z.literal(BACKUP_VERSION),
  created_at: z.iso.datetime(),
  /** Version of the portal that wrote the backup. */
  portal_version: z.string(),
  database: z.object({
    file: z.literal(DATABASE_FILE),
    dialect: z.literal('sqlite'),
    size: sizeField,
    sha256: sha256Field,
    /** Migrations applied in the snapshot. */
    migrations: z.array(z.string()),
  }),
  /** Rows per table in the snapshot. */
  row_counts: z.record(z.string(), sizeField),
  objects: z.array(z.object({ key: z.string().regex(KEY_PATTERN), size: sizeField, sha256: sha256Field })),
  /**
   * DATA_DIR/secret.key, the key of the secrets at rest (decision 126), when the portal made one
   * (SECRET_KEY unset); without it the restored TOTP seeds could not be read.
   */
  secret_key: z.object({ size: sizeField, sha256: sha256Field }).optional(),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export interface ObjectInfo {
  size: number;
  sha256: string;
}

/** A refusal or failure the operator can act on; its message is German and says what to do. */
export class OpsError extends Error {
  override name = 'OpsError';
}

export const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';

/** True for a folder that does not exist or holds nothing. */
export async function isEmptyFolder(path: string): Promise<boolean> {
  try {
    return (await readdir(path)).length === 0;
  } catch (error) {
    if (isMissing(error)) return true;
    throw error;
  }
}

/** Whether `path` is `folder` itself or lies inside it. */
export function isWithin(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export async function syncFolder(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Copies `from` to `to` through `to.part` (flushed to disk, then renamed), hashing on the way.
 * The source is opened first: once open, its content stays readable even if it is deleted
 * meanwhile. A missing source rejects with ENOENT; with `expected`, a different size or checksum
 * rejects with an OpsError and leaves nothing behind.
 */
export async function copyVerified(from: string, to: string, expected?: ObjectInfo): Promise<ObjectInfo> {
  const source = await open(from, 'r');
  const part = `${to}.part`;
  const hash = createHash('sha256');
  let size = 0;
  try {
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    await pipeline(
      source.createReadStream({ autoClose: false }),
      measure,
      createWriteStream(part, { flags: 'wx', mode: PRIVATE_FILE_MODE, flush: true }),
    );
    const actual = { size, sha256: hash.digest('hex') };
    if (expected && (actual.size !== expected.size || actual.sha256 !== expected.sha256)) {
      throw new OpsError(
        `Prüfsumme stimmt nicht: ${from} (erwartet ${expected.size} Bytes, SHA-256 ${expected.sha256}; ` +
          `gefunden ${actual.size} Bytes, SHA-256 ${actual.sha256}).`,
      );
    }
    await rename(part, to);
    return actual;
  } catch (error) {
    await rm(part, { force: true });
    throw error;
  } finally {
    await source.close();
  }
}

export async function sha256OfFile(path: string): Promise<ObjectInfo> {
  const handle = await open(path, 'r');
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      hash.update(chunk);
    }
  } finally {
    await handle.close();
  }
  return { size, sha256: hash.digest('hex') };
}

export interface SnapshotContents {
  integrity: string;
  rowCounts: Record<string, number>;
  migrations: string[];
  /** Every stored object the rows refer to (documents and event files), as the rows describe it. */
  objects: Map<string, RecordedObject>;
}

/** Size and checksum as a row records them; null where a row lacks them. */
export interface RecordedObject {
  size: number | null;
  sha256: string | null;
}

/** The recorded values, when the row has both; a copy is checked against them. */
export const expectedOf = (recorded: RecordedObject): ObjectInfo | undefined =>
  recorded.size !== null && recorded.sha256 !== null
    ? { size: recorded.size, sha256: recorded.sha256 }
    : undefined;

/** Reads what a backup needs from a SQLite database (an open snapshot or a restored copy). */
export function readSnapshot(db: SQLite.Database): SnapshotContents {
  const integrity = (db.pragma('integrity_check', { simple: true }) as string) ?? '';
  const tables = db
    .prepare(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`)
    .pluck()
    .all() as string[];
  const rowCounts: Record<string, number> = {};
  for (const table of tables) {
    // Names come from sqlite_master itself; quoted as identifiers.
    rowCounts[table] = db
      .prepare(`select count(*) from "${table.replaceAll('"', '""')}"`)
      .pluck()
      .get() as number;
  }
  const migrations = tables.includes('kysely_migration')
    ? (db.prepare('select name from kysely_migration order by name').pluck().all() as string[])
    : [];
  const objects = new Map<string, RecordedObject>();
  const rows = db.prepare(referencedObjectsSql(new Set(tables))).all() as {
    key: string;
    size: number | null;
    sha256: string | null;
  }[];
  for (const row of rows) {
    const known = objects.get(row.key);
    if (known && known.sha256 !== row.sha256) {
      throw new OpsError(`Die Datenbank nennt für die Datei ${row.key} zwei verschiedene Prüfsummen.`);
    }
    objects.set(row.key, { size: row.size === null ? null : Number(row.size), sha256: row.sha256 });
  }
  return { integrity, rowCounts, migrations, objects };
}
