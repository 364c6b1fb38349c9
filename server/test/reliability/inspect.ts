import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { expect } from 'vitest';
import type { Database } from '../../src/db/schema.ts';
import { heldObjects, type TrashSnapshot } from '../../src/features/trash/trash.snapshot.ts';

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

/** Every row that refers to a stored object, and the Papierkorb's items (decision 125). */
export interface StoredRows {
  files: { id: number; storage_key: string; size_bytes: number; sha256: string }[];
  versions: { file_id: number; version: number; storage_key: string; size_bytes: number; sha256: string }[];
  events: { id: number; storage_key: string | null; size_bytes: number | null; sha256: string | null }[];
  folderIds: number[];
  trashItems: { id: number; kind: string; object_id: number; snapshot: string }[];
  trashObjects: { trash_id: number; storage_key: string; size_bytes: number; sha256: string }[];
}

/** Reads them in one transaction, so they show one moment. */
export async function storedRows(trx: Transaction<Database> | Kysely<Database>): Promise<StoredRows> {
  const num = <T extends { size_bytes: number | null }>(row: T): T => ({
    ...row,
    size_bytes: row.size_bytes === null ? null : Number(row.size_bytes),
  });
  return {
    files: (
      await trx
        .selectFrom('files')
        .select(['id', 'storage_key', 'size_bytes', 'sha256'])
        .orderBy('id')
        .execute()
    ).map(num),
    versions: (
      await trx
        .selectFrom('file_versions')
        .select(['file_id', 'version', 'storage_key', 'size_bytes', 'sha256'])
        .orderBy('file_id')
        .orderBy('version')
        .execute()
    ).map(num),
    events: (
      await trx
        .selectFrom('events')
        .select([
          'id',
          'file_storage_key as storage_key',
          'file_size_bytes as size_bytes',
          'file_sha256 as sha256',
        ])
        .orderBy('id')
        .execute()
    ).map(num),
    folderIds: (await trx.selectFrom('folders').select('id').execute()).map((row) => row.id),
    trashItems: await trx
      .selectFrom('trash_items')
      .select(['id', 'kind', 'object_id', 'snapshot'])
      .orderBy('id')
      .execute(),
    trashObjects: (
      await trx
        .selectFrom('trash_objects')
        .select(['trash_id', 'storage_key', 'size_bytes', 'sha256'])
        .orderBy('storage_key')
        .execute()
    ).map(num),
  };
}

/** The keys of every stored object a row refers to, sorted. */
export function referencedKeys(rows: StoredRows): string[] {
  return [
    ...rows.files.map((row) => row.storage_key),
    ...rows.versions.map((row) => row.storage_key),
    ...rows.trashObjects.map((row) => row.storage_key),
    ...rows.events.flatMap((row) => (row.storage_key === null ? [] : [row.storage_key])),
  ].sort();
}

/** Objects already found intact (their content never changes under a key). */
const intact = new Map<string, string>();

/**
 * The rows and the storage folder agree: every referenced object is there with the size and
 * SHA-256 its row names, no object is referred to twice, each Papierkorb item's `trash_objects`
 * are exactly what its snapshot's rows refer to, and nothing is half restored: no id of a
 * snapshot (document, folder, event) exists in the live tables too.
 */
export async function expectStoredConsistently(where: string, filesDir: string, rows: StoredRows) {
  const objects = [
    ...rows.files.map((row) => ({ what: `Datei ${row.id}`, ...row })),
    ...rows.versions.map((row) => ({ what: `Version ${row.version} der Datei ${row.file_id}`, ...row })),
    ...rows.trashObjects.map((row) => ({ what: `Papierkorb-Eintrag ${row.trash_id}`, ...row })),
    ...rows.events.flatMap((row) =>
      row.storage_key === null
        ? []
        : [
            {
              what: `Event ${row.id}`,
              storage_key: row.storage_key,
              size_bytes: row.size_bytes,
              sha256: row.sha256,
            },
          ],
    ),
  ];
  const keys = objects.map((object) => object.storage_key);
  expect(
    keys.filter((key, index) => keys.indexOf(key) !== index),
    `${where}: Objekte, auf die mehrere Zeilen verweisen`,
  ).toEqual([]);
  for (const object of objects) {
    const path = join(filesDir, object.storage_key);
    const what = `${where}: ${object.what} (${object.storage_key})`;
    if (intact.get(object.storage_key) === object.sha256) continue;
    const size = await stat(path).then(
      (info) => info.size,
      () => -1,
    );
    expect(size, `${what}: Größe`).toBe(object.size_bytes);
    expect(await sha256OfFile(path), `${what}: Prüfsumme`).toBe(object.sha256);
    intact.set(object.storage_key, object.sha256!);
  }

  const liveFiles = new Set(rows.files.map((row) => row.id));
  const liveFolders = new Set(rows.folderIds);
  const liveEvents = new Set(rows.events.map((row) => row.id));
  for (const item of rows.trashItems) {
    const snapshot = JSON.parse(item.snapshot) as TrashSnapshot;
    const what = `${where}: Papierkorb-Eintrag ${item.id} (${item.kind} ${item.object_id})`;
    const held = heldObjects(snapshot)
      .map((object) => ({ ...object, size_bytes: Number(object.size_bytes) }))
      .sort((a, b) => a.storage_key.localeCompare(b.storage_key));
    expect(
      rows.trashObjects
        .filter((row) => row.trash_id === item.id)
        .map(({ storage_key, size_bytes, sha256: sha }) => ({ storage_key, size_bytes, sha256: sha }))
        .sort((a, b) => a.storage_key.localeCompare(b.storage_key)),
      `${what}: gehaltene Objekte`,
    ).toEqual(held);
    const topId =
      item.kind === 'file'
        ? snapshot.files[0]?.id
        : item.kind === 'folder'
          ? snapshot.folders[0]?.id
          : snapshot.events[0]?.id;
    expect(topId, `${what}: Schnappschuss`).toBe(item.object_id);
    expect(
      [
        ...snapshot.files.filter((row) => liveFiles.has(row.id)).map((row) => `Datei ${row.id}`),
        ...snapshot.folders.filter((row) => liveFolders.has(row.id)).map((row) => `Ordner ${row.id}`),
        ...snapshot.events.filter((row) => liveEvents.has(row.id)).map((row) => `Event ${row.id}`),
      ],
      `${what}: zugleich im Papierkorb und in den Tabellen`,
    ).toEqual([]);
  }
  // Each object is in the Papierkorb at most once.
  const kinds = rows.trashItems.map((item) => `${item.kind} ${item.object_id}`);
  expect(
    kinds.filter((kind, index) => kinds.indexOf(kind) !== index),
    `${where}: doppelt im Papierkorb`,
  ).toEqual([]);
}

/**
 * The mails the file transport delivered (`<time>-<outbox id>.eml`), by outbox id: more than one
 * name under an id means the mail went out more than once.
 */
export async function deliveredMailFiles(mailDir: string): Promise<Map<number, string[]>> {
  const names = await readdir(mailDir).catch(() => [] as string[]);
  const delivered = new Map<number, string[]>();
  for (const name of names.sort()) {
    const match = /-(\d+)\.eml$/.exec(name);
    if (!match || name.startsWith('.')) continue;
    const id = Number(match[1]);
    delivered.set(id, [...(delivered.get(id) ?? []), name]);
  }
  return delivered;
}

/**
 * Which of `secrets` lie in plain text at rest: in any file under `dataDir` (the SQLite database
 * and its WAL, mails, documents) or, on PostgreSQL, in any row of any table. Returns "where: secret"
 * for each find.
 */
export async function secretsAtRest(
  dataDir: string,
  secrets: readonly string[],
  postgres?: Kysely<Database>,
): Promise<string[]> {
  const found: string[] = [];
  const search = (where: string, content: Buffer | string) => {
    for (const secret of secrets) if (content.includes(secret)) found.push(`${where}: ${secret}`);
  };
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const path = join(entry.parentPath, entry.name);
    search(path, await readFile(path).catch(() => Buffer.alloc(0)));
  }
  if (postgres) {
    const tables = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(postgres);
    for (const { name } of tables.rows) {
      const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(
        postgres,
      );
      for (const { row } of rows.rows) search(`Tabelle ${name}`, row);
    }
  }
  return found;
}
