import { z } from 'zod';
import { dataOf, idSchema, MIN_NAME_LENGTH, roleRefSchema, titleText } from './common.ts';
import { asList, folderSchema, optionalIdField, roleListField } from './folders.ts';
import {
  ACKNOWLEDGEMENT_MESSAGES,
  acknowledgementFields,
  acknowledgementResetField,
  fileAcknowledgementFields,
} from './acknowledgements.ts';
import { batchIdField } from './files-batches.ts';

export { FILE_MESSAGES } from './file-messages.ts';
import { FILE_MESSAGES } from './file-messages.ts';

/** Multipart and JSON field names that hold lists (repeated fields in multipart). */
export const FILE_LIST_FIELDS = ['roles', 'permissions', 'folders', 'notifications'] as const;

export const fileTitleField = titleText('Titel', MIN_NAME_LENGTH);

const notificationsField = z.preprocess(
  (value) => (value === '' ? [] : asList(value)),
  z.array(roleRefSchema).max(20),
);
const foldersField = z.preprocess(
  (value) => (value === '' ? [] : asList(value)),
  z.array(idSchema).max(1, { error: FILE_MESSAGES.oneFolderOnly }),
);
/** The file as a data URL (JSON variant); multipart sends it as the part `file`. */
const dataUrlField = z
  .string()
  .nullish()
  .describe('Die Datei als Data-URL (data:<Medientyp>;base64,…), nur bei JSON');

const fileFields = {
  title: fileTitleField,
  /** First reading of product.md P10.6. */
  roles: roleListField.optional(),
  folders: foldersField.optional(),
  data: dataUrlField,
  /** Second reading (and the web app's multipart names). */
  permissions: roleListField.optional(),
  folder_id: optionalIdField,
  file: dataUrlField,
  notifications: notificationsField.optional(),
  /** Kenntnisnahme (decision 131): `true`/`false` (multipart: `"true"`, `"1"`, `"on"`, `""`). */
  ...acknowledgementFields,
};

const isPresent = (value: unknown) => value !== undefined && value !== null && value !== '';
const anyIn = (value: unknown, keys: string[]) =>
  typeof value === 'object' &&
  value !== null &&
  keys.some((key) => isPresent((value as Record<string, unknown>)[key]));

/**
 * File create, both readings of product.md P10.6: `{ title, roles, folders: [id], notifications, data }`
 * or `{ title, file, permissions, notifications, folder_id }`. Multipart uses the second
 * reading's names with the file as part `file`. Roles (at least one) and a folder are required.
 * `batch_id` (decision 182) joins the upload to a batch: one mail per member for all its documents.
 */
export const createFileBodySchema = z.object({ ...fileFields, batch_id: batchIdField }).superRefine(
  (value, ctx) => {
    if (!anyIn(value, ['roles', 'permissions'])) {
      for (const path of ['permissions', 'roles']) {
        ctx.addIssue({ code: 'custom', path: [path], message: FILE_MESSAGES.rolesRequired });
      }
    }
    const folders = (value as { folders?: unknown }).folders;
    if (!anyIn(value, ['folder_id']) && !(Array.isArray(folders) && folders.length > 0)) {
      ctx.addIssue({ code: 'custom', path: ['folder_id'], message: FILE_MESSAGES.folderRequired });
    }
    const ack = value as { acknowledgement_required?: unknown; acknowledgement_due?: unknown };
    if (typeof ack.acknowledgement_due === 'string' && ack.acknowledgement_required !== true) {
      ctx.addIssue({
        code: 'custom',
        path: ['acknowledgement_due'],
        message: ACKNOWLEDGEMENT_MESSAGES.dueWithoutRequired,
      });
    }
  },
  // Also when other fields failed, so the form shows every missing field at once.
  { when: () => true },
);
export type CreateFileBody = z.output<typeof createFileBodySchema>;
export type CreateFileInput = z.input<typeof createFileBodySchema>;

/**
 * File update: `{ title, roles, folders, data? }` or `{ title, permissions, folder_id, file? }`.
 * What is left out stays as it is; a new file replaces the content. `notifications` mails the
 * chosen roles about the change. With a new content, `acknowledgement_reset` (default yes) asks
 * the members to confirm again; a date "bis" needs the Kenntnisnahme switched on (checked against
 * the stored document).
 */
export const updateFileBodySchema = z.object({
  ...fileFields,
  title: fileTitleField.optional(),
  acknowledgement_reset: acknowledgementResetField,
});
export type UpdateFileBody = z.output<typeof updateFileBodySchema>;
export type UpdateFileInput = z.input<typeof updateFileBodySchema>;

export const fileListQuerySchema = z.object({
  /** Newest first; at most this many (default: all visible files). */
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type FileListQuery = z.infer<typeof fileListQuerySchema>;

/**
 * `GET /tree?files=false`: the folders only, every node with `files: []` (the explorer's sidebar
 * needs no documents; on a large portal they are nine tenths of the answer). Default: with files.
 */
export const treeQuerySchema = z.object({
  files: z.enum(['true', 'false']).default('true'),
});
export type TreeQuery = z.infer<typeof treeQuerySchema>;

/** How the content is used, for the audit log: opened in a tab or saved (the default). */
export const downloadQuerySchema = z.object({ purpose: z.enum(['view', 'download']).default('download') });

export const downloadKeyParamsSchema = z.object({
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/)
    .max(64),
});

/** A document as every file call returns it. */
export const storedFileSchema = z.object({
  type: z.literal('file'),
  id: z.number().int(),
  title: z.string(),
  /** Extension without the dot, lower case (`pdf`). */
  format: z.string(),
  /** Creation time, ISO 8601 UTC. */
  date: z.string(),
  /** Download key: `GET /api/v1/download/{external}` with the bearer token. */
  external: z.string(),
  mime_type: z.string(),
  roles: z.array(z.string()),
  roles_string: z.string(),
  folder: z.object({ id: z.number().int(), title: z.string(), breadcrumb: z.string() }).nullable(),
  folder_id: z.number().int(),
  folder_name: z.string(),
  /** Size in MB (1 MB = 1024 × 1024 bytes), two decimals. */
  size: z.number(),
  size_bytes: z.number().int(),
  /** Time of the last change (content, title, roles or folder), ISO 8601 UTC. */
  updated_at: z.string(),
  /**
   * In an archived folder (an ended Amtsperiode, decision 189): it cannot be replaced, renamed,
   * moved or deleted, also by Admins; who may read it can still change.
   */
  archived: z.boolean(),
  /**
   * `GET /files/{id}` only: whether the text inside can be searched (decision 128): `done`, `pending`
   * (being read), `empty` (no text layer, e.g. a scan), `failed` (damaged or too large), `none`
   * (a format without text, found by title only).
   */
  text_state: z.enum(['pending', 'done', 'empty', 'failed', 'none']).optional(),
  /**
   * For the signed-in member (decision 131): added or replaced since their account existed and not
   * opened, downloaded or marked read since. In every file answer except the documents inside
   * `GET /tree`, which is shared by everyone with the same roles (its folders carry `new_count`).
   */
  new: z.boolean().optional(),
  /**
   * Kenntnisnahme (decision 131): in every file answer except the documents inside `GET /tree`.
   * `acknowledged_at` is the signed-in member's confirmation of the current request.
   */
  acknowledgement_required: fileAcknowledgementFields.acknowledgement_required.optional(),
  acknowledgement_due: fileAcknowledgementFields.acknowledgement_due.optional(),
  acknowledged_at: fileAcknowledgementFields.acknowledged_at.optional(),
});
export type StoredFile = z.infer<typeof storedFileSchema>;

/** A row of the explorer grid: a folder or a file, told apart by `type`. */
export const explorerItemSchema = z.discriminatedUnion('type', [folderSchema, storedFileSchema]);
export type ExplorerItem = z.infer<typeof explorerItemSchema>;

/**
 * A node of the sidebar tree: the folder, its visible subfolders and its visible files.
 * `new_count`: documents new for the signed-in member in it and below it (visible ones only).
 */
export interface TreeNode {
  id: number;
  title: string;
  breadcrumb: string;
  roles: string[];
  new_count: number;
  /** Read-only: the folder of an ended Amtsperiode or below it (decision 189). */
  archived: boolean;
  children: TreeNode[];
  files: StoredFile[];
}
export const treeNodeSchema: z.ZodType<TreeNode> = z.object({
  id: z.number().int(),
  title: z.string(),
  breadcrumb: z.string(),
  roles: z.array(z.string()),
  new_count: z.number().int(),
  archived: z.boolean(),
  get children() {
    return z.array(treeNodeSchema);
  },
  files: z.array(storedFileSchema),
});

export const fileListResponseSchema = dataOf(z.array(storedFileSchema));
export type FileListResponse = z.infer<typeof fileListResponseSchema>;
export const fileDataResponseSchema = dataOf(storedFileSchema);
export type FileDataResponse = z.infer<typeof fileDataResponseSchema>;
export const fileResponseSchema = z.object({ file: storedFileSchema });
export type FileResponse = z.infer<typeof fileResponseSchema>;
export const explorerListResponseSchema = dataOf(z.array(explorerItemSchema));
export type ExplorerListResponse = z.infer<typeof explorerListResponseSchema>;
export const treeResponseSchema = dataOf(treeNodeSchema);
export type TreeResponse = z.infer<typeof treeResponseSchema>;
