import { z } from 'zod';
import { dataOf, idSchema } from './common.ts';
import { storedFileSchema } from './files.ts';

/** Versions of a document (decision 125): replacing the content keeps the previous one. */
export const VERSION_MESSAGES = {
  title: 'Versionen',
  restore: 'Diese Version wiederherstellen',
  restored: 'Version wurde wiederhergestellt',
  restoreFailed: 'Die Version konnte nicht wiederhergestellt werden.',
  alreadyCurrent: 'Das ist bereits die aktuelle Version.',
  loadFailed: 'Die Versionen konnten nicht geladen werden.',
} as const;

export const versionParamsSchema = z.object({ id: idSchema, version: idSchema });
export type VersionParams = z.output<typeof versionParamsSchema>;

export const fileVersionSchema = z.object({
  /** 1 for the first upload, raised by every replacement and restore. */
  version: z.number().int(),
  current: z.boolean(),
  /** When this content was stored, ISO 8601 UTC. */
  date: z.string(),
  /** Who stored it ("Vorname Nachname <mail>" at the time); null when unknown. */
  stored_by: z.string().nullable(),
  /** When and by whom it was replaced; null for the current version. */
  replaced_at: z.string().nullable(),
  replaced_by: z.string().nullable(),
  /** The version this one was restored from, if it is a restore. */
  restored_from: z.number().int().nullable(),
  format: z.string(),
  mime_type: z.string(),
  size_bytes: z.number().int(),
  /** Size in MB (1 MB = 1024 × 1024 bytes), two decimals. */
  size: z.number(),
});
export type FileVersion = z.infer<typeof fileVersionSchema>;

/** Newest first; the first entry is the current version. */
export const fileVersionListResponseSchema = dataOf(z.array(fileVersionSchema));
export type FileVersionListResponse = z.infer<typeof fileVersionListResponseSchema>;

export const versionRestoreResponseSchema = z.object({ file: storedFileSchema });
export type VersionRestoreResponse = z.infer<typeof versionRestoreResponseSchema>;
