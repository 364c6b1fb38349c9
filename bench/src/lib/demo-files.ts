/**
 * Pieces every data set generator shares: deterministic random numbers, the words titles are made
 * of, and a small PDF written to the storage folder with the `files` row that points at it.
 */
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Insertable } from 'kysely';
import type { FilesTable } from '../../../server/src/db/schema.ts';
import { demoPdf } from '../../../server/src/db/demo-seed.ts';
import { newKey } from '../../../server/src/storage/object-keys.ts';

export const FOLDER_WORDS = [
  'Sitzung',
  'Protokolle',
  'Berichte',
  'Anlagen',
  'Beschlüsse',
  'Haushalt',
  'Wahl',
];
export const FILE_WORDS = ['Protokoll', 'Tagesordnung', 'Bericht', 'Beschlussvorlage', 'Anlage', 'Einladung'];

/** Deterministic pseudo-random numbers, so every run builds the same data set. */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Writes a one-page PDF titled `title` under a new storage key and returns its `files` row. */
export async function demoFile(
  filesDir: string,
  folderId: number,
  title: string,
  stamp: string,
): Promise<Insertable<FilesTable>> {
  const content = demoPdf(title);
  const key = newKey();
  await writeFile(join(filesDir, key), content);
  return {
    folder_id: folderId,
    title,
    format: 'pdf',
    mime_type: 'application/pdf',
    size_bytes: content.length,
    sha256: createHash('sha256').update(content).digest('hex'),
    storage_key: key,
    download_key: newKey(),
    created_at: stamp,
    updated_at: stamp,
    content_at: stamp,
  };
}
