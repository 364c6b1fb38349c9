import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, EventsTable } from '../../db/schema.ts';
import { eventTrashItems, findTrashItem } from './trash.repository.ts';
import type { TrashSnapshot } from './trash.snapshot.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/*
 * What the events feature may read of events in the Papierkorb (decision 130): a
 * deleted event answers its calendar link and stays in calendar feeds as a cancelled entry until
 * it is purged, for whoever could see it. Who that is, the caller asks the events policy.
 */

/** An event as it was deleted, with its role ids and the time of the deletion. */
export interface TrashedEvent {
  event: Selectable<EventsTable>;
  roles: { id: number }[];
  deletedAt: string;
}

function fromSnapshot(snapshot: string, deletedAt: string): TrashedEvent | undefined {
  const [row] = (JSON.parse(snapshot) as TrashSnapshot).events;
  if (!row) return undefined;
  const { roles, ...event } = row;
  return { event, roles: roles.map((id) => ({ id })), deletedAt };
}

/** The event with this id if it is in the Papierkorb (not restored, not purged). */
export async function trashedEvent(db: Executor, id: number): Promise<TrashedEvent | undefined> {
  const item = await findTrashItem(db, 'event', id);
  return item ? fromSnapshot(item.snapshot, item.deleted_at) : undefined;
}

/** Every event in the Papierkorb that ended at or after `sinceIso`. */
export async function trashedEventsSince(db: Executor, sinceIso: string): Promise<TrashedEvent[]> {
  const items = await eventTrashItems(db);
  return items
    .map((item) => fromSnapshot(item.snapshot, item.deleted_at))
    .filter((item): item is TrashedEvent => item !== undefined && item.event.end_at >= sinceIso);
}
