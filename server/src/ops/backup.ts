import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { loadConfig, readDotEnv, type Config } from '../config.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/private-files.ts';
import { SECRET_KEY_FILE } from '../credentials/secret-box.ts';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  copyVerified,
  DATABASE_FILE,
  expectedOf,
  FILES_DIR,
  isEmptyFolder,
  isMissing,
  isWithin,
  MANIFEST_FILE,
  OpsError,
  readSnapshot,
  sha256OfFile,
  syncFolder,
  type BackupManifest,
  type ObjectInfo,
} from './backup-format.ts';

/** How many new snapshots are taken when objects vanish under a running backup. */
const MAX_ATTEMPTS = 5;
/** Pages per backup step: all of them, so the snapshot is taken in one read transaction. */
const ALL_PAGES = 0x7fffffff;

export const POSTGRES_BACKUP_MESSAGE =
  'Dieser Befehl sichert nur die SQLite-Datenbank. Mit PostgreSQL (DATABASE_URL ist gesetzt) sichern ' +
  'Sie die Datenbank mit pg_dump, z. B. pg_dump -Fc "$DATABASE_URL" > portal.dump, und kopieren danach ' +
  'den Dokumentenspeicher (DATA_DIR/files bzw. den S3-Bucket). Siehe README, Abschnitt „Sicherung“.';
export const S3_BACKUP_MESSAGE =
  'Mit STORAGE=s3 liegen die Dokumente im Bucket, nicht in DATA_DIR/files. Sichern Sie die Datenbank ' +
  'und den Bucket wie im README (Abschnitt „Sicherung“) beschrieben.';

export interface BackupOptions {
  /** The portal's DATA_DIR (holds portal.sqlite and files/). */
  dataDir: string;
  /** An empty or new folder outside DATA_DIR. */
  target: string;
  /** Progress lines for the operator. */
  log?: (line: string) => void;
  /** Test seam: runs after each database snapshot, before its objects are copied. */
  afterSnapshot?: (attempt: number) => Promise<void>;
}

export function portalVersion(): string {
  try {
    const path = new URL('../../package.json', import.meta.url);
    return (JSON.parse(readFileSync(path, 'utf8')) as { version?: string }).version ?? 'unbekannt';
  } catch {
    return 'unbekannt';
  }
}

/**
 * A consistent backup of a SQLite portal while it runs (decision 095):
 *
 * 1. SQLite's online backup copies the database in one read transaction: a snapshot of one
 *    committed moment, taken without stopping writers.
 * 2. The objects that snapshot refers to are copied from the storage. Objects never change, but a
 *    replacement or deletion committed after the snapshot removes its object. Each copy opens its
 *    source first (an open file stays readable after deletion); when one has vanished already, a
 *    new snapshot is taken, which no longer refers to it, and only its new objects are copied.
 *    An object that is missing although the newest snapshot refers to it is an error.
 * 3. Objects copied for an earlier snapshot that the final one does not refer to are removed, the
 *    snapshot is checked (integrity_check) and the manifest is written last.
 */
export async function backupSqlite(options: BackupOptions): Promise<BackupManifest> {
  const log = options.log ?? (() => undefined);
  const dataDir = resolve(options.dataDir);
  const target = resolve(options.target);
  const source = join(dataDir, DATABASE_FILE);
  if (!existsSync(source)) {
    throw new OpsError(`Keine Datenbank gefunden: ${source}. Ist DATA_DIR richtig gesetzt?`);
  }
  if (isWithin(target, dataDir) || isWithin(dataDir, target)) {
    throw new OpsError(
      `Das Sicherungsverzeichnis ${target} darf nicht im Datenverzeichnis ${dataDir} liegen.`,
    );
  }
  if (!(await isEmptyFolder(target))) {
    throw new OpsError(
      `Das Sicherungsverzeichnis ${target} ist nicht leer. Bitte ein neues oder leeres Verzeichnis angeben.`,
    );
  }
  const targetExisted = existsSync(target);
  const filesTarget = join(target, FILES_DIR);
  const partial = join(target, `${DATABASE_FILE}.part`);
  // A backup holds what DATA_DIR holds: owner-only as well (private-files.ts).
  await mkdir(filesTarget, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(target, PRIVATE_DIR_MODE);

  const live = new SQLite(source, { readonly: true, fileMustExist: true });
  live.pragma('busy_timeout = 10000');
  try {
    const copied = new Map<string, ObjectInfo>();
    let vanishedBefore = new Set<string>();
    let snapshot;
    for (let attempt = 1; ; attempt += 1) {
      await rm(partial, { force: true });
      await live.backup(partial, { progress: () => ALL_PAGES });
      await chmod(partial, PRIVATE_FILE_MODE);
      snapshot = inspectCopy(partial);
      await options.afterSnapshot?.(attempt);

      const vanished: string[] = [];
      for (const [key, recorded] of snapshot.objects) {
        if (copied.has(key)) continue;
        if (vanishedBefore.has(key)) {
          throw new OpsError(
            `Die Datei ${key} fehlt im Speicher (${join(dataDir, FILES_DIR)}), obwohl die Datenbank auf sie ` +
              'verweist. Die Sicherung wurde abgebrochen.',
          );
        }
        try {
          copied.set(
            key,
            await copyVerified(join(dataDir, FILES_DIR, key), join(filesTarget, key), expectedOf(recorded)),
          );
        } catch (error) {
          if (!isMissing(error)) throw error;
          vanished.push(key);
        }
      }
      if (vanished.length === 0) break;
      if (attempt >= MAX_ATTEMPTS) {
        throw new OpsError(
          `Während der Sicherung wurden immer wieder Dateien gelöscht (${MAX_ATTEMPTS} Versuche). ` +
            'Bitte später erneut versuchen.',
        );
      }
      log(
        `${vanished.length} Datei(en) wurden während der Sicherung gelöscht; der Datenbankstand wird neu gesichert.`,
      );
      vanishedBefore = new Set(vanished);
    }

    for (const key of copied.keys()) {
      if (!snapshot.objects.has(key)) {
        await rm(join(filesTarget, key), { force: true });
        copied.delete(key);
      }
    }
    await syncFolder(filesTarget);
    await rename(partial, join(target, DATABASE_FILE));
    const database = await sha256OfFile(join(target, DATABASE_FILE));
    const secretKey = existsSync(join(dataDir, SECRET_KEY_FILE))
      ? await copyVerified(join(dataDir, SECRET_KEY_FILE), join(target, SECRET_KEY_FILE))
      : undefined;
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created_at: new Date().toISOString(),
      portal_version: portalVersion(),
      database: { file: DATABASE_FILE, dialect: 'sqlite', ...database, migrations: snapshot.migrations },
      row_counts: snapshot.rowCounts,
      objects: [...copied]
        .map(([key, info]) => ({ key, ...info }))
        .sort((a, b) => a.key.localeCompare(b.key)),
      ...(secretKey ? { secret_key: secretKey } : {}),
    };
    const manifestPart = join(target, `${MANIFEST_FILE}.part`);
    await writeFile(manifestPart, `${JSON.stringify(manifest, null, 2)}\n`, {
      flush: true,
      mode: PRIVATE_FILE_MODE,
    });
    await rename(manifestPart, join(target, MANIFEST_FILE));
    await syncFolder(target);
    return manifest;
  } catch (error) {
    // No half backup may look like one: remove what this run wrote.
    await rm(filesTarget, { recursive: true, force: true });
    const written = ['', '-journal', '-wal', '-shm'].map((suffix) => `${DATABASE_FILE}.part${suffix}`);
    for (const name of [...written, DATABASE_FILE, SECRET_KEY_FILE, `${MANIFEST_FILE}.part`]) {
      await rm(join(target, name), { force: true });
    }
    if (!targetExisted) await rmdir(target).catch(() => undefined);
    throw error;
  } finally {
    live.close();
  }
}

/** Turns the fresh copy into a self-contained file and reads it; a damaged copy stops the backup. */
function inspectCopy(path: string) {
  const copy = new SQLite(path, { fileMustExist: true });
  try {
    // The copy inherits WAL mode; a rollback journal keeps the backup a single file.
    copy.pragma('journal_mode = DELETE');
    const snapshot = readSnapshot(copy);
    if (snapshot.integrity !== 'ok') {
      throw new OpsError(`Die gesicherte Datenbank ist beschädigt (integrity_check: ${snapshot.integrity}).`);
    }
    return snapshot;
  } finally {
    copy.close();
  }
}

/**
 * What `backup` and `restore` start with: the directory argument, relative to where the operator
 * ran npm, and the configuration from `.env`, which must name SQLite and local document storage.
 */
export function sqliteOpsStart(
  args: string[],
  messages: { usage: string; postgres: string },
): { folder: string; config: Config } {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args, allowPositionals: true, options: {} }));
  } catch {
    throw new OpsError(messages.usage);
  }
  if (positionals.length !== 1) throw new OpsError(messages.usage);
  const folder = resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
  readDotEnv();
  const config = loadConfig();
  if (config.DATABASE_URL) throw new OpsError(messages.postgres);
  if (config.STORAGE === 's3') throw new OpsError(S3_BACKUP_MESSAGE);
  return { folder, config };
}

/** All rows the manifest counts, over every table. */
export const totalRows = (manifest: BackupManifest) =>
  Object.values(manifest.row_counts).reduce((sum, n) => sum + n, 0);

const megabytes = (bytes: number) =>
  `${(bytes / 1024 / 1024).toLocaleString('de-DE', { maximumFractionDigits: 2 })} MB`;

/** `npm run backup -- <verzeichnis>` */
export async function backupCommand(args: string[]): Promise<void> {
  const { folder: target, config } = sqliteOpsStart(args, {
    usage: 'Verwendung: npm run backup -- <verzeichnis>',
    postgres: POSTGRES_BACKUP_MESSAGE,
  });
  const manifest = await backupSqlite({
    dataDir: config.DATA_DIR,
    target,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  const rows = totalRows(manifest);
  const bytes = manifest.objects.reduce((sum, object) => sum + object.size, 0);
  process.stdout.write(
    [
      `Sicherung erstellt: ${target}`,
      `  Datenbank: ${megabytes(manifest.database.size)}, ${rows} Zeilen in ${Object.keys(manifest.row_counts).length} Tabellen`,
      `  Dateien:   ${manifest.objects.length} (${megabytes(bytes)})`,
      '',
    ].join('\n'),
  );
}
