import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Database, EventRow, EventsTable } from '../../db/schema.ts';
import type { Dialect } from '../../db/dialect.ts';
import type { EventRowFilter } from '../../policies/events.policy.ts';
import { groupRoles, rolesByObject, replaceRoleLinks } from '../../db/role-links.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export interface RoleRow {
  id: number;
  name: string;
}

export type EventRecord = EventRow & { roles: RoleRow[] };

/** How one event is found: by id, or by the download key of its information file or Protokoll. */
export type EventLookup = { id: number } | { downloadKey: string } | { minutesKey: string };

async function withRoles(db: Executor, rows: EventRow[]): Promise<EventRecord[]> {
  const roles = await rolesByObject(
    db,
    'event_roles',
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, roles: roles.get(row.id) ?? [] }));
}

/**
 * Events by start time. `visible` (a rule from policies/) limits the list in the same query;
 * undefined lists every event.
 */
export async function listEvents(
  db: Executor,
  visible?: EventRowFilter,
  /** Only events ending at or after this instant (ISO UTC), and at most `limit` of them. */
  upcoming?: { endsFrom: string; limit: number },
): Promise<EventRecord[]> {
  let query = db.selectFrom('events').selectAll('events');
  if (visible) query = query.where(visible);
  if (upcoming) query = query.where('events.end_at', '>=', upcoming.endsFrom).limit(upcoming.limit);
  const rows = await query.orderBy('events.start_at').orderBy('events.id').execute();
  return withRoles(db, rows);
}

/**
 * One event with its roles in a single query, found by id or by the download key of its
 * information file or of its Protokoll. `visible` narrows it in the same query, so an event the user may not see costs exactly
 * what a missing one does.
 */
export async function findEventBy(
  db: Executor,
  by: EventLookup,
  visible?: EventRowFilter,
): Promise<EventRecord | undefined> {
  let match = db.selectFrom('events').select('events.id');
  match =
    'id' in by
      ? match.where('events.id', '=', by.id)
      : 'minutesKey' in by
        ? match.where('events.minutes_download_key', '=', by.minutesKey)
        : match.where('events.file_download_key', '=', by.downloadKey);
  if (visible) match = match.where(visible);
  const rows = await db
    .selectFrom('events')
    .leftJoin('event_roles', 'event_roles.event_id', 'events.id')
    .leftJoin('roles', 'roles.id', 'event_roles.role_id')
    .selectAll('events')
    .select(['roles.id as role_id', 'roles.name as role_name'])
    .where('events.id', 'in', match)
    .orderBy('roles.id')
    .execute();
  const [event] = groupRoles(rows);
  return event;
}

export function findEvent(
  db: Executor,
  id: number,
  visible?: EventRowFilter,
): Promise<EventRecord | undefined> {
  return findEventBy(db, { id }, visible);
}

export function findEventByDownloadKey(
  db: Executor,
  key: string,
  visible?: EventRowFilter,
): Promise<EventRecord | undefined> {
  return findEventBy(db, { downloadKey: key }, visible);
}

export function findEventByMinutesKey(
  db: Executor,
  key: string,
  visible?: EventRowFilter,
): Promise<EventRecord | undefined> {
  return findEventBy(db, { minutesKey: key }, visible);
}

export async function insertEvent(db: Executor, row: Insertable<EventsTable>): Promise<number> {
  const inserted = await db.insertInto('events').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateEvent(db: Executor, id: number, patch: Updateable<EventsTable>): Promise<void> {
  await db.updateTable('events').set(patch).where('id', '=', id).execute();
}

export const replaceEventRoles = (db: Executor, eventId: number, roleIds: readonly number[]) =>
  replaceRoleLinks(db, 'event_roles', eventId, roleIds);

/**
 * Locks the event row for the rest of the transaction, so an update reads the event (its SEQUENCE,
 * its file, its roles) only after a concurrent update has committed: PostgreSQL `FOR UPDATE`;
 * SQLite's transactions begin IMMEDIATE and so run one at a time (db/database.ts).
 */
export async function lockEvent(trx: Transaction<Database>, dialect: Dialect, id: number): Promise<void> {
  const query = trx.selectFrom('events').select('id').where('id', '=', id);
  await (dialect === 'postgres' ? query.forUpdate().execute() : query.execute());
}
