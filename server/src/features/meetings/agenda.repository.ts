import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import { batches } from '../../db/batches.ts';
import type { AgendaItemsTable, Database } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;
type RoleRef = { id: number; name: string };

/** An agenda item as stored: `position` among its siblings. */
export type AgendaItemRow = Omit<Selectable<AgendaItemsTable>, 'event_id'>;

/** What an item shows and sends of a linked document (the live `files` row). */
export interface AgendaDocument {
  id: number;
  title: string;
  format: string;
  mime_type: string;
  storage_key: string;
  download_key: string;
  size_bytes: number;
  updated_at: string;
}

/** A document linked to an item, joined with the live `files` row and its roles. */
export interface LinkedFileRow extends AgendaDocument {
  item_id: number;
  folder_id: number;
  roles: RoleRef[];
}

/** The event's items, parents before children, each level by position. */
export async function loadAgendaItems(db: Executor, eventId: number): Promise<AgendaItemRow[]> {
  return db
    .selectFrom('agenda_items')
    .select(['id', 'parent_id', 'position', 'title', 'description', 'presenter'])
    .where('event_id', '=', eventId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** The roles of these documents, each list by role id. */
async function rolesOfFiles(db: Executor, fileIds: readonly number[]): Promise<Map<number, RoleRef[]>> {
  const roles = new Map<number, RoleRef[]>();
  for (const batch of batches([...new Set(fileIds)])) {
    const rows = await db
      .selectFrom('file_roles')
      .innerJoin('roles', 'roles.id', 'file_roles.role_id')
      .select(['file_roles.file_id', 'roles.id', 'roles.name'])
      .where('file_roles.file_id', 'in', batch)
      .orderBy('roles.id')
      .execute();
    for (const row of rows) {
      const list = roles.get(row.file_id) ?? [];
      list.push({ id: row.id, name: row.name });
      roles.set(row.file_id, list);
    }
  }
  return roles;
}

/**
 * The documents linked to these items that still exist (a link to a document in the Papierkorb
 * or purged joins nothing, decision 130), in link order, with their roles.
 */
export async function loadLinkedFiles(db: Executor, itemIds: readonly number[]): Promise<LinkedFileRow[]> {
  if (itemIds.length === 0) return [];
  const rows = await db
    .selectFrom('agenda_item_files')
    .innerJoin('files', 'files.id', 'agenda_item_files.file_id')
    .select([
      'agenda_item_files.item_id',
      'files.id',
      'files.folder_id',
      'files.title',
      'files.format',
      'files.mime_type',
      'files.storage_key',
      'files.download_key',
      'files.size_bytes',
      'files.updated_at',
    ])
    .where('agenda_item_files.item_id', 'in', [...itemIds])
    .orderBy('agenda_item_files.item_id')
    .orderBy('agenda_item_files.position')
    .execute();
  const roles = await rolesOfFiles(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    ...row,
    size_bytes: Number(row.size_bytes),
    updated_at: String(row.updated_at),
    roles: roles.get(row.id) ?? [],
  }));
}

/** Live documents with these ids, with their roles (what an agenda may link). */
export async function filesByIds(
  db: Executor,
  ids: readonly number[],
): Promise<{ id: number; folder_id: number; title: string; roles: RoleRef[] }[]> {
  const rows: { id: number; folder_id: number; title: string }[] = [];
  for (const batch of batches([...new Set(ids)])) {
    rows.push(
      ...(await db
        .selectFrom('files')
        .select(['id', 'folder_id', 'title'])
        .where('id', 'in', batch)
        .execute()),
    );
  }
  const roles = await rolesOfFiles(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, roles: roles.get(row.id) ?? [] }));
}

/** Removes the event's agenda: links, sub-items, then main items. */
export async function deleteAgenda(trx: Transaction<Database>, eventId: number): Promise<number> {
  const items = trx.selectFrom('agenda_items').select('id').where('event_id', '=', eventId);
  await trx.deleteFrom('agenda_item_files').where('item_id', 'in', items).execute();
  const sub = await trx
    .deleteFrom('agenda_items')
    .where('event_id', '=', eventId)
    .where('parent_id', 'is not', null)
    .executeTakeFirst();
  const main = await trx.deleteFrom('agenda_items').where('event_id', '=', eventId).executeTakeFirst();
  return Number(sub.numDeletedRows) + Number(main.numDeletedRows);
}

export async function insertAgendaItem(
  trx: Transaction<Database>,
  row: Insertable<AgendaItemsTable>,
): Promise<number> {
  const inserted = await trx.insertInto('agenda_items').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function insertItemFiles(
  trx: Transaction<Database>,
  links: readonly { item_id: number; file_id: number; position: number }[],
): Promise<void> {
  for (const batch of batches(links)) await trx.insertInto('agenda_item_files').values(batch).execute();
}
