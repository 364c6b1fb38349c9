import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';

/**
 * DATA_DIR holds the database, confidential documents (§ 34, § 41 GenG) and mails with
 * set-password links; backups hold the same. Only the account the portal runs as may read them,
 * whatever umask the start script or service manager left: directories 0700, files 0600.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * With DOWNLOAD_OFFLOAD=nginx (decision 135) nginx opens the documents itself: its user joins the
 * portal's group, which may pass through DATA_DIR and `files/` (no listing) and read the documents.
 * The database, the key, mails and backups stay owner-only.
 */
export const SHARED_DIR_MODE = 0o710;
export const SHARED_FILE_MODE = 0o640;

/** The base for everything a server or CLI process creates: no bits for group and others. */
export function restrictUmask(): void {
  process.umask(0o077);
}

/** Creates the folder (and missing parents) owner-only; an existing one is made owner-only. */
export async function makePrivateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  await chmod(path, PRIVATE_DIR_MODE);
}

export function makePrivateDirSync(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(path, PRIVATE_DIR_MODE);
}

/**
 * Creates the file empty if missing and makes it owner-only. For files another library creates
 * (SQLite uses 0644 minus the umask, and gives its -wal and -shm files the database file's mode).
 */
export function makePrivateFileSync(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  chmodSync(path, PRIVATE_FILE_MODE);
}
