import type { TrashKind } from '@gremienportal/contracts/trash';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, TrashItemsTable } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;
export type TrashRow = Selectable<TrashItemsTable>;

export async function findTrashItem(
  db: Executor,
  kind: TrashKind,
  objectId: number,
): Promise<TrashRow | undefined> {
  return db
    .selectFrom('trash_items')
    .selectAll()
    .where('kind', '=', kind)
    .where('object_id', '=', objectId)
    .executeTakeFirst();
}

/** Removes the item (its held objects go by cascade); the storage keys it held, to delete after commit. */
export async function deleteTrashItem(trx: Transaction<Database>, id: number): Promise<string[]> {
  const keys = await trx
    .selectFrom('trash_objects')
    .select('storage_key')
    .where('trash_id', '=', id)
    .execute();
  await trx.deleteFrom('trash_items').where('id', '=', id).execute();
  return keys.map((row) => row.storage_key);
}

export interface TrashFilter {
  kind?: TrashKind;
  deletedBy?: number;
  fromIso?: string | null;
  toIso?: string | null;
}

function filtered(db: Executor, filter: TrashFilter) {
  let query = db.selectFrom('trash_items');
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.deletedBy !== undefined) query = query.where('deleted_by', '=', filter.deletedBy);
  if (filter.fromIso) query = query.where('deleted_at', '>=', filter.fromIso);
  if (filter.toIso) query = query.where('deleted_at', '<', filter.toIso);
  return query;
}

/** One page of items, newest deletion first, without their snapshots. */
export async function listTrashItems(db: Executor, filter: TrashFilter, page: number, perPage: number) {
  const [rows, total, all, deleters] = await Promise.all([
    filtered(db, filter)
      .select([
        'id',
        'kind',
        'object_id',
        'title',
        'former_path',
        'former_parent_id',
        'deleted_at',
        'deleted_by',
        'deleted_by_label',
        'size_bytes',
        'file_count',
        'folder_count',
      ])
      .orderBy('deleted_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('trash_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('trash_items')
      .select(['deleted_by', (eb) => eb.fn.max('deleted_by_label').as('label')])
      .where('deleted_by', 'is not', null)
      .groupBy('deleted_by')
      .execute(),
  ]);
  return {
    rows: rows.map((row) => ({ ...row, size_bytes: Number(row.size_bytes) })),
    total: Number(total.n),
    all: Number(all.n),
    deleters: deleters
      .map((row) => ({ id: row.deleted_by!, label: row.label ?? '' }))
      .sort((a, b) => a.label.localeCompare(b.label, 'de')),
  };
}

/** What removing an item for good needs to know (its audit entry). */
const PURGE_COLUMNS = [
  'id',
  'kind',
  'object_id',
  'title',
  'size_bytes',
  'file_count',
  'folder_count',
] as const;

/** Every item, for emptying the Papierkorb. */
export function allTrashItems(db: Executor) {
  return db.selectFrom('trash_items').select(PURGE_COLUMNS).orderBy('id').execute();
}

/** Items deleted before the cut-off, oldest first. */
export async function expiredTrashItems(db: Executor, beforeIso: string, limit: number) {
  return db
    .selectFrom('trash_items')
    .select(PURGE_COLUMNS)
    .where('deleted_at', '<', beforeIso)
    .orderBy('deleted_at')
    .limit(limit)
    .execute();
}

/** Which of these folders exist (a restore's former parent may be gone). */
export async function existingRoleIds(db: Executor): Promise<Set<number>> {
  return new Set((await db.selectFrom('roles').select('id').execute()).map((row) => row.id));
}

/** Every deleted event with its snapshot (the cancelled entries of calendar feeds). */
export function eventTrashItems(db: Executor) {
  return db
    .selectFrom('trash_items')
    .select(['object_id', 'deleted_at', 'snapshot'])
    .where('kind', '=', 'event')
    .orderBy('id')
    .execute();
}
