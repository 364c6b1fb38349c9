import type { TrashKind } from '@gremienportal/contracts/trash';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import {
  captureEvent,
  captureFile,
  captureFolders,
  heldObjects,
  type TrashSnapshot,
} from './trash.snapshot.ts';

/*
 * What the files, folders and events features call to delete: the Papierkorb's way in. It knows
 * nothing of folders' rules (the callers have checked them), so they can depend on it.
 */

/** What the Papierkorb records about a deletion besides the rows. */
export interface TrashEntry {
  title: string;
  formerPath: string | null;
  formerParentId: number | null;
  deletedAt: string;
  deletedBy: { id: number; label: string } | null;
}

async function putInTrash(
  trx: Transaction<Database>,
  kind: TrashKind,
  objectId: number,
  entry: TrashEntry,
  snapshot: TrashSnapshot,
): Promise<{ files: number; folders: number }> {
  const objects = heldObjects(snapshot);
  const { id } = await trx
    .insertInto('trash_items')
    .values({
      kind,
      object_id: objectId,
      title: entry.title,
      former_path: entry.formerPath,
      former_parent_id: entry.formerParentId,
      deleted_at: entry.deletedAt,
      deleted_by: entry.deletedBy?.id ?? null,
      deleted_by_label: entry.deletedBy?.label ?? null,
      size_bytes: objects.reduce((sum, object) => sum + object.size_bytes, 0),
      file_count: snapshot.files.length + snapshot.events.filter((e) => e.file_storage_key !== null).length,
      folder_count: snapshot.folders.length,
      snapshot: JSON.stringify(snapshot),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let start = 0; start < objects.length; start += 300) {
    await trx
      .insertInto('trash_objects')
      .values(objects.slice(start, start + 300).map((object) => ({ ...object, trash_id: id })))
      .execute();
  }
  return { files: snapshot.files.length, folders: snapshot.folders.length };
}

/*
 * Moving to the Papierkorb: in the transaction of the deletion, the rows are copied into a trash
 * item and removed from the live tables (role links and versions go by ON DELETE CASCADE). The
 * stored objects stay where they are; `trash_objects` now refers to them.
 */

export async function trashFile(trx: Transaction<Database>, id: number, entry: TrashEntry): Promise<void> {
  await putInTrash(trx, 'file', id, entry, await captureFile(trx, id));
  await trx.deleteFrom('files').where('id', '=', id).execute();
}

/** `folderIds`: the folder first, then everything below it. Answers how many went. */
export async function trashFolder(
  trx: Transaction<Database>,
  folderIds: readonly number[],
  entry: TrashEntry,
): Promise<{ files: number; folders: number }> {
  const counts = await putInTrash(trx, 'folder', folderIds[0]!, entry, await captureFolders(trx, folderIds));
  await trx.deleteFrom('folders').where('id', '=', folderIds[0]!).execute();
  return counts;
}

export async function trashEvent(trx: Transaction<Database>, id: number, entry: TrashEntry): Promise<void> {
  await putInTrash(trx, 'event', id, entry, await captureEvent(trx, id));
  await trx.deleteFrom('events').where('id', '=', id).execute();
}
