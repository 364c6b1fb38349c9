import { z } from 'zod';
import { dataOf, idSchema, MIN_NAME_LENGTH, roleRefSchema, titleText } from './common.ts';

export { FOLDER_MESSAGES, PERIOD_MAX_YEAR, PERIOD_MAX_YEARS, PERIOD_MIN_YEAR } from './file-messages.ts';
import { FOLDER_MESSAGES, PERIOD_MAX_YEAR, PERIOD_MAX_YEARS, PERIOD_MIN_YEAR } from './file-messages.ts';

/** `Amtsperiode 2026–2030`, with an en dash. */
export const periodFolderTitle = (start: number, end: number) => `Amtsperiode ${start}–${end}`;

/** A single value (multipart sends one repeated field as a plain string) becomes a list. */
export const asList = (value: unknown) =>
  value === undefined || value === null || Array.isArray(value) ? (value ?? undefined) : [value];
const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** An optional folder id: missing, `null` and `''` (an empty form field) all mean "not given". */
export const optionalIdField = z.preprocess(emptyToUndefined, z.optional(idSchema));

/** Roles by id or name, at least one; a single multipart value counts as a list of one. */
export const roleListField = z.preprocess(
  asList,
  z
    .array(roleRefSchema, { error: FOLDER_MESSAGES.rolesRequired })
    .min(1, { error: FOLDER_MESSAGES.rolesRequired })
    .max(20),
);

/** product.md P11 and product.md P6.3: required, at least 3 characters, no `/` (paths rely on it). */
export const folderTitleField = titleText('Name', MIN_NAME_LENGTH)
  .refine((value) => !value.includes('/'), { error: FOLDER_MESSAGES.slashInTitle })
  // eslint-disable-next-line no-control-regex
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), { error: FOLDER_MESSAGES.controlInTitle });

/**
 * Both readings of product.md P10.6: `{ title }` or `{ folder_id, title }`; `parent_id` is accepted as a
 * synonym of `folder_id`. The parent defaults to the root (id 1). Without `roles` the new folder
 * takes its parent's roles.
 */
export const createFolderBodySchema = z.object({
  title: folderTitleField,
  folder_id: optionalIdField,
  parent_id: optionalIdField,
  roles: roleListField.optional(),
});
export type CreateFolderBody = z.output<typeof createFolderBodySchema>;
export type CreateFolderInput = z.input<typeof createFolderBodySchema>;

/**
 * Rename, move and re-role: `{ title }` or `{ parent_id, title }`, plus optional `roles`.
 * Without `parent_id` the folder stays where it is; without `roles` its roles stay.
 */
export const updateFolderBodySchema = z.object({
  title: folderTitleField,
  parent_id: optionalIdField,
  roles: roleListField.optional(),
});
export type UpdateFolderBody = z.output<typeof updateFolderBodySchema>;
export type UpdateFolderInput = z.input<typeof updateFolderBodySchema>;

const yearField = (field: 'Start' | 'Ende') =>
  z.preprocess(
    (value) =>
      value === '' || value === null
        ? undefined
        : typeof value === 'string' && /^\s*\d+\s*$/.test(value)
          ? Number(value)
          : value,
    z
      .number({
        error: (issue) =>
          issue.input === undefined
            ? field === 'Start'
              ? FOLDER_MESSAGES.periodStartRequired
              : FOLDER_MESSAGES.periodEndRequired
            : FOLDER_MESSAGES.periodYearInvalid(field),
      })
      .int({ error: FOLDER_MESSAGES.periodYearInvalid(field) })
      .min(PERIOD_MIN_YEAR, { error: FOLDER_MESSAGES.periodYearMin(field) })
      .max(PERIOD_MAX_YEAR, { error: FOLDER_MESSAGES.periodYearMax(field) }),
  );

/** product.md P6.8: `{ folder_id, start, end }`, end ≥ start, at most 10 years, 1950–2100. */
export const periodBodySchema = z
  .object({
    folder_id: idSchema,
    start: yearField('Start'),
    end: yearField('Ende'),
  })
  .superRefine((value, ctx) => {
    const inRange = (year: number) => year >= PERIOD_MIN_YEAR && year <= PERIOD_MAX_YEAR;
    if (!inRange(value.start) || !inRange(value.end)) return;
    if (value.end < value.start) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: FOLDER_MESSAGES.periodEndBeforeStart });
    } else if (value.end - value.start + 1 > PERIOD_MAX_YEARS) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: FOLDER_MESSAGES.periodTooLong });
    }
  });
export type PeriodBody = z.output<typeof periodBodySchema>;
export type PeriodInput = z.input<typeof periodBodySchema>;

/**
 * `archived`: the folder of an ended Amtsperiode or a folder below it (decision 189): nothing in
 * it can be uploaded, replaced, moved, renamed or deleted, also by Admins; its roles may change.
 */
const archivedField = z.boolean();

export const folderRefSchema = z.object({
  id: z.number().int(),
  breadcrumb: z.string(),
  archived: archivedField,
});
export type FolderRef = z.infer<typeof folderRefSchema>;

/**
 * A folder as every folder call returns it. `children` and `files` count the direct subfolders
 * and files the caller may see (the explorer grid shows the items themselves through
 * `GET /folders/{id}/files`). `type` tells folders from files in mixed listings.
 */
export const folderSchema = z.object({
  type: z.literal('folder'),
  id: z.number().int(),
  title: z.string(),
  format: z.literal('folder'),
  /** Creation time, ISO 8601 UTC. */
  date: z.string(),
  roles: z.array(z.string()),
  roles_string: z.string(),
  /** Full path such as `/Aufsichtsrat/2026`; the root is `/`. */
  breadcrumb: z.string(),
  /** The parent folder, or null for the root. */
  parent: folderRefSchema.nullable(),
  parent_id: z.number().int().nullable(),
  /** Number of visible direct subfolders. */
  children: z.number().int(),
  /** Number of visible files directly inside. */
  files: z.number().int(),
  /**
   * Documents new for the signed-in member in this folder and below it, at any depth (visible
   * ones only; decision 131).
   */
  new_count: z.number().int(),
  /** Time of the last change (rename, move, roles), ISO 8601 UTC. */
  updated_at: z.string(),
  /** Read-only: the folder of an ended Amtsperiode or below it (see `folderRefSchema`). */
  archived: archivedField,
});
export type Folder = z.infer<typeof folderSchema>;

/** What deleting the folder would remove, for the confirmation ("enthält N Ordner und M Dateien"). */
export const folderContentsSchema = z.object({
  /** All visible folders below it, at any depth. */
  folders: z.number().int(),
  /** All visible files in it and below it. */
  files: z.number().int(),
});
export type FolderContents = z.infer<typeof folderContentsSchema>;

/** `GET /folders/{id}`: the folder plus the counts of everything below it. */
export const folderDetailSchema = folderSchema.extend({ contents: folderContentsSchema });
export type FolderDetail = z.infer<typeof folderDetailSchema>;

export const folderListResponseSchema = dataOf(z.array(folderSchema));
export type FolderListResponse = z.infer<typeof folderListResponseSchema>;
export const folderDetailResponseSchema = dataOf(folderDetailSchema);
export type FolderDetailResponse = z.infer<typeof folderDetailResponseSchema>;
export const folderResponseSchema = z.object({ folder: folderSchema });
export type FolderResponse = z.infer<typeof folderResponseSchema>;
/** Move targets (`/breadcrumbs/{id}`) and upload targets (`/file-breadcrumbs`). */
export const folderRefListResponseSchema = dataOf(z.array(folderRefSchema));
export type FolderRefListResponse = z.infer<typeof folderRefListResponseSchema>;
