import { z } from 'zod';
import { idSchema } from './common.ts';
import { optionalId, pageFields, pageMetaSchema, rangeInOrder, timeField } from './audit.ts';

/**
 * The Papierkorb (decision 125): deleted documents, folders (with their subtree) and events wait here
 * until they are restored, purged by a Super-Admin or expire after `TRASH_DAYS`.
 */
export const TRASH_KINDS = ['file', 'folder', 'event'] as const;
export type TrashKind = (typeof TRASH_KINDS)[number];

export const TRASH_KIND_LABELS: Record<TrashKind, string> = {
  file: 'Datei',
  folder: 'Ordner',
  event: 'Event',
};

/** Added to a restored title when its former place holds one of the same name by now. */
export const RESTORED_SUFFIX = ' (wiederhergestellt)';

export const TRASH_MESSAGES = {
  title: 'Papierkorb',
  empty: 'Der Papierkorb ist leer.',
  filteredEmpty: 'Kein Eintrag passt zu Ihren Filtern.',
  loadFailed: 'Der Papierkorb konnte nicht geladen werden.',
  gone: 'Dieser Eintrag ist nicht mehr im Papierkorb: er wurde inzwischen wiederhergestellt oder endgültig gelöscht.',
  targetRequired: 'Der frühere Ordner ist nicht mehr vorhanden. Bitte einen Zielordner wählen.',
  targetNotFound: 'Der Zielordner wurde nicht gefunden.',
  noFilesInRoot:
    'In den Hauptordner können keine Dateien wiederhergestellt werden. Bitte einen Unterordner wählen.',
  noTargetForEvents: 'Ein Event hat keinen Ordner; bitte ohne Zielordner wiederherstellen.',
  invalidType: 'Bitte einen gültigen Typ angeben (Datei, Ordner oder Event).',
  restored: 'Wiederhergestellt',
  restoreFailed: 'Die Wiederherstellung ist fehlgeschlagen.',
  purged: 'Endgültig gelöscht',
  purgeFailed: 'Das endgültige Löschen ist fehlgeschlagen.',
  emptied: 'Der Papierkorb wurde geleert.',
  superAdminOnly: 'Endgültig löschen darf nur ein Super-Admin.',
} as const;

export const trashParamsSchema = z.object({
  type: z.enum(TRASH_KINDS, { error: TRASH_MESSAGES.invalidType }),
  id: idSchema,
});
export type TrashParams = z.output<typeof trashParamsSchema>;

export const trashListQuerySchema = z
  .object({
    type: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.enum(TRASH_KINDS, { error: TRASH_MESSAGES.invalidType }).optional(),
    ),
    /** Who deleted it (user id). */
    deleted_by: optionalId,
    from: timeField,
    to: timeField,
    ...pageFields,
  })
  .refine(rangeInOrder, { error: 'Das Ende des Zeitraums darf nicht vor dem Anfang liegen.', path: ['to'] });
export type TrashListQuery = z.output<typeof trashListQuerySchema>;
export type TrashListParams = z.input<typeof trashListQuerySchema>;

/** `folder_id`: where to restore when the former folder is gone or itself in the Papierkorb. */
export const trashRestoreBodySchema = z.object({ folder_id: z.optional(idSchema) }).strict();
export type TrashRestoreBody = z.output<typeof trashRestoreBodySchema>;

export const trashItemSchema = z.object({
  /** The Papierkorb entry (`/trash/{type}/{id}` uses the object's own id, `object_id`). */
  id: z.number().int(),
  type: z.enum(TRASH_KINDS),
  object_id: z.number().int(),
  /** Documents as `title.format`, folders and events by title. */
  title: z.string(),
  /** Where it was: the folder path of a document, a folder's own path; null for events. */
  former_path: z.string().nullable(),
  former_folder_id: z.number().int().nullable(),
  /** The former folder is gone or in the Papierkorb: restoring needs `folder_id`. */
  needs_target: z.boolean(),
  /** ISO 8601 UTC. */
  deleted_at: z.string(),
  deleted_by: z.object({ id: z.number().int().nullable(), label: z.string() }).nullable(),
  /** All stored content of the entry (old versions included), in bytes. */
  size_bytes: z.number().int(),
  /** Documents inside (a document: 1; an event: 1 with an information file). */
  files: z.number().int(),
  /** Folders inside, the folder itself included. */
  folders: z.number().int(),
  /** When the daily maintenance removes it for good (ISO 8601 UTC). */
  expires_at: z.string(),
});
export type TrashItem = z.infer<typeof trashItemSchema>;

export const trashListResponseSchema = z.object({
  data: z.array(trashItemSchema),
  meta: pageMetaSchema.extend({
    /** Entries in the whole Papierkorb, whatever the filters ("Papierkorb leeren" names it). */
    all: z.number().int(),
    /** Everyone who deleted something now in the Papierkorb, for the "who" filter. */
    deleters: z.array(z.object({ id: z.number().int(), label: z.string() })),
    /** Whether the caller may purge (Super-Admin). */
    may_purge: z.boolean(),
  }),
});
export type TrashListResponse = z.infer<typeof trashListResponseSchema>;

export const trashRestoreResponseSchema = z.object({
  data: z.object({
    type: z.enum(TRASH_KINDS),
    id: z.number().int(),
    title: z.string(),
    /** The folder it is in now (a document) or below (a folder); null for events. */
    folder_id: z.number().int().nullable(),
    /** True when " (wiederhergestellt)" was added to avoid a clash. */
    renamed: z.boolean(),
  }),
});
export type TrashRestoreResponse = z.infer<typeof trashRestoreResponseSchema>;

export const trashEmptyResponseSchema = z.object({ data: z.object({ removed: z.number().int() }) });
export type TrashEmptyResponse = z.infer<typeof trashEmptyResponseSchema>;

/** "3 Einträge" / "1 Eintrag". */
export const entryCount = (count: number) => `${count} ${count === 1 ? 'Eintrag' : 'Einträge'}`;
