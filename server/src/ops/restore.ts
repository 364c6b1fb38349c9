import { readFile, mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { migrationsFor } from '../db/migrations/index.ts';
import { makePrivateDir, PRIVATE_DIR_MODE } from '../storage/private-files.ts';
import { SECRET_KEY_FILE } from '../credentials/secret-box.ts';
import {
  copyVerified,
  DATABASE_FILE,
  FILES_DIR,
  isEmptyFolder,
  isMissing,
  MANIFEST_FILE,
  manifestSchema,
  OpsError,
  readSnapshot,
  syncFolder,
  type BackupManifest,
} from './backup-format.ts';
import { sqliteOpsStart, totalRows } from './backup.ts';

export const POSTGRES_RESTORE_MESSAGE =
  'Dieser Befehl stellt nur SQLite-Sicherungen wieder her. Mit PostgreSQL (DATABASE_URL ist gesetzt) ' +
  'spielen Sie die Sicherung mit pg_restore ein, z. B. pg_restore --clean --if-exists -d "$DATABASE_URL" ' +
  'portal.dump, und kopieren den Dokumentenspeicher zurück. Siehe README, Abschnitt „Sicherung“.';

/** Where the restore assembles its copy inside DATA_DIR before moving it into place. */
const STAGING_DIR = '.restore';

export interface RestoreOptions {
  /** A folder written by `backup`. */
  source: string;
  /** The new DATA_DIR: missing or empty. */
  dataDir: string;
}

export async function readManifest(source: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(join(source, MANIFEST_FILE), 'utf8');
  } catch (error) {
    if (isMissing(error)) {
      throw new OpsError(
        `${source} ist keine vollständige Sicherung: ${MANIFEST_FILE} fehlt (sie wird als Letztes geschrieben).`,
      );
    }
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OpsError(`${MANIFEST_FILE} in ${source} ist kein gültiges JSON.`);
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    const where = result.error.issues[0]?.path.join('.') ?? '';
    throw new OpsError(`${MANIFEST_FILE} in ${source} ist keine Sicherung dieses Formats (Feld „${where}“).`);
  }
  return result.data;
}

/**
 * Restores a backup into an empty DATA_DIR (decision 095). Everything is checked before the
 * portal could see it: each object's size and SHA-256 against the manifest while it is copied,
 * the database file's checksum, its integrity_check, its row counts and the objects its rows
 * refer to. The copy is assembled in `DATA_DIR/.restore/` and moved into place only when all of
 * that holds; on any failure DATA_DIR is left empty again.
 */
export async function restoreSqlite(options: RestoreOptions): Promise<BackupManifest> {
  const source = resolve(options.source);
  const dataDir = resolve(options.dataDir);
  const manifest = await readManifest(source);
  if (!(await isEmptyFolder(dataDir))) {
    throw new OpsError(
      `Das Datenverzeichnis ${dataDir} ist nicht leer. Die Wiederherstellung schreibt nur in ein leeres ` +
        'Datenverzeichnis: bitte ein neues angeben (DATA_DIR) oder das bisherige erst beiseitelegen.',
    );
  }
  const known = Object.keys(migrationsFor('sqlite'));
  const unknown = manifest.database.migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new OpsError(
      `Die Sicherung stammt von einer neueren Version des Portals (Migration ${unknown.join(', ')}). ` +
        'Bitte zuerst das Portal aktualisieren.',
    );
  }

  await makePrivateDir(dataDir);
  const staging = join(dataDir, STAGING_DIR);
  try {
    await mkdir(join(staging, FILES_DIR), { recursive: true, mode: PRIVATE_DIR_MODE });
    for (const object of manifest.objects) {
      try {
        await copyVerified(join(source, FILES_DIR, object.key), join(staging, FILES_DIR, object.key), object);
      } catch (error) {
        if (isMissing(error)) throw new OpsError(`In der Sicherung fehlt ${FILES_DIR}/${object.key}.`);
        throw error;
      }
    }
    await syncFolder(join(staging, FILES_DIR));
    await copyVerified(join(source, DATABASE_FILE), join(staging, DATABASE_FILE), manifest.database);
    checkDatabase(join(staging, DATABASE_FILE), manifest);
    if (manifest.secret_key) {
      await copyVerified(join(source, SECRET_KEY_FILE), join(staging, SECRET_KEY_FILE), manifest.secret_key);
    }

    await rename(join(staging, FILES_DIR), join(dataDir, FILES_DIR));
    await rename(join(staging, DATABASE_FILE), join(dataDir, DATABASE_FILE));
    if (manifest.secret_key) await rename(join(staging, SECRET_KEY_FILE), join(dataDir, SECRET_KEY_FILE));
    await rm(staging, { recursive: true, force: true });
    await syncFolder(dataDir);
    return manifest;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    await rm(join(dataDir, FILES_DIR), { recursive: true, force: true });
    throw error;
  }
}

/** The restored database must be intact and hold exactly what the manifest says. */
function checkDatabase(path: string, manifest: BackupManifest): void {
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    const snapshot = readSnapshot(db);
    if (snapshot.integrity !== 'ok') {
      throw new OpsError(`Die gesicherte Datenbank ist beschädigt (integrity_check: ${snapshot.integrity}).`);
    }
    const counts = JSON.stringify(Object.entries(snapshot.rowCounts).sort());
    if (counts !== JSON.stringify(Object.entries(manifest.row_counts).sort())) {
      throw new OpsError('Die Zeilenzahlen der Datenbank stimmen nicht mit dem Manifest überein.');
    }
    const listed = new Map(manifest.objects.map((object) => [object.key, object]));
    for (const [key, recorded] of snapshot.objects) {
      const object = listed.get(key);
      if (!object)
        throw new OpsError(`Die Datenbank verweist auf ${FILES_DIR}/${key}, das Manifest nennt sie nicht.`);
      if (recorded.sha256 !== null && recorded.sha256 !== object.sha256) {
        throw new OpsError(`Die Prüfsumme von ${FILES_DIR}/${key} in der Datenbank weicht vom Manifest ab.`);
      }
    }
    if (listed.size !== snapshot.objects.size) {
      throw new OpsError('Das Manifest nennt Dateien, auf die die Datenbank nicht verweist.');
    }
  } finally {
    db.close();
  }
}

/** `npm run restore -- <verzeichnis>` */
export async function restoreCommand(args: string[]): Promise<void> {
  const { folder: source, config } = sqliteOpsStart(args, {
    usage: 'Verwendung: npm run restore -- <verzeichnis>',
    postgres: POSTGRES_RESTORE_MESSAGE,
  });
  const dataDir = resolve(config.DATA_DIR);
  const manifest = await restoreSqlite({ source, dataDir });
  const rows = totalRows(manifest);
  process.stdout.write(
    [
      `Sicherung vom ${manifest.created_at} wiederhergestellt nach ${dataDir}`,
      `  Datenbank: ${rows} Zeilen in ${Object.keys(manifest.row_counts).length} Tabellen, integrity_check ok`,
      `  Dateien:   ${manifest.objects.length}, alle Prüfsummen stimmen`,
      'Das Portal kann jetzt mit diesem DATA_DIR gestartet werden.',
      '',
    ].join('\n'),
  );
}
