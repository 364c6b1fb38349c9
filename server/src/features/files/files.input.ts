import type { z } from 'zod';
import { ROOT_FOLDER_ID } from '@gremienportal/contracts/common';
import { FILE_MESSAGES } from '@gremienportal/contracts/files';
import { invalidField } from '../../errors.ts';
import type { FilesTree } from '../explorer/explorer.service.ts';
import type { FolderRecord } from '../../db/document-records.ts';
import { parseFields } from '../../http/upload-fields.ts';
import { assertWritable } from '../folders/folders.service.ts';

/**
 * The fields of a multipart upload that arrived before its file part, by the same
 * schema as `parseFields`. A field not sent yet may still follow the file, so only an issue of a
 * field already present refuses the upload now; then the answer is the full check's, every issue
 * at once. Returns the parsed fields when they are complete and valid.
 */
export function parseFieldsSoFar<S extends z.ZodType>(
  schema: S,
  fields: Record<string, unknown>,
): z.output<S> | undefined {
  const result = schema.safeParse(fields);
  if (result.success) return result.data as z.output<S>;
  const final = result.error.issues.some((issue) => {
    const field = issue.path[0];
    return typeof field === 'string' && field in fields;
  });
  if (final) parseFields(schema, fields);
  return undefined;
}

/** Which of the two payload readings of product.md P10.6 a request used, for errors under its own names. */
export function normalize(body: {
  roles?: (string | number)[];
  permissions?: (string | number)[];
  folders?: number[];
  folder_id?: number;
  notifications?: (string | number)[];
}) {
  return {
    roleRefs: body.permissions ?? body.roles,
    rolesField: body.permissions !== undefined || body.roles === undefined ? 'permissions' : 'roles',
    folderId: body.folder_id ?? body.folders?.[0],
    folderField: body.folder_id !== undefined || !body.folders?.length ? 'folder_id' : 'folders',
    notifications: body.notifications ?? [],
  };
}

/** The field a missing or broken file is reported under: `data` for the first reading, else `file`. */
export const fileFieldOf = (fields: Record<string, unknown>) =>
  fields.roles !== undefined || fields.folders !== undefined ? 'data' : 'file';

/** The target folder of an upload or move: visible, existing, not the root and not archived. */
export function uploadFolder(tree: FilesTree, folderId: number, field: string): FolderRecord {
  const folder = tree.find(folderId);
  if (!folder) throw invalidField(field, FILE_MESSAGES.folderNotFound);
  if (folder.id === ROOT_FOLDER_ID || folder.parent_id === null)
    throw invalidField(field, FILE_MESSAGES.noUploadToRoot);
  assertWritable(tree, folder.id);
  return folder;
}

export function checkNotifications(notifyIds: readonly number[], fileRoleIds: readonly number[]) {
  if (notifyIds.some((id) => !fileRoleIds.includes(id))) {
    throw invalidField('notifications', FILE_MESSAGES.notificationsOutsideRoles);
  }
}
