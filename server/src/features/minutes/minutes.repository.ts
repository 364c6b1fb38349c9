import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { Database, MinutesTable } from '../../db/schema.ts';
import type { Dialect } from '../../db/dialect.ts';

/* Niederschriften (decision 193): Kysely only, no rules. */

export type Executor = Kysely<Database> | Transaction<Database>;
export type MinutesRow = Selectable<MinutesTable>;

export function findMinutes(db: Executor, id: number) {
  return db.selectFrom('minutes').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockMinutes(trx: Transaction<Database>, dialect: Dialect, id: number) {
  const query = trx.selectFrom('minutes').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** The Niederschrift (not a Nachtrag) of a meeting for a committee. */
export function minutesOfEvent(db: Executor, eventId: number, committeeId: number) {
  return db
    .selectFrom('minutes')
    .select('id')
    .where('event_id', '=', eventId)
    .where('committee_id', '=', committeeId)
    .where('kind', '=', 'niederschrift')
    .executeTakeFirst();
}

export async function insertMinutes(db: Executor, row: Insertable<MinutesTable>): Promise<number> {
  const { id } = await db.insertInto('minutes').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function insertVersion(
  db: Executor,
  row: { minutes_id: number; version: number; content: string; author_id: number; saved_at: string },
) {
  await db.insertInto('minutes_versions').values(row).execute();
}

export function latestVersion(db: Executor, minutesId: number) {
  return db
    .selectFrom('minutes_versions')
    .leftJoin('users', 'users.id', 'minutes_versions.author_id')
    .select([
      'minutes_versions.version',
      'minutes_versions.content',
      'minutes_versions.saved_at',
      'users.firstname',
      'users.lastname',
    ])
    .where('minutes_versions.minutes_id', '=', minutesId)
    .orderBy('minutes_versions.version', 'desc')
    .executeTakeFirstOrThrow();
}

/** Raises the version if it is still `from`: true once, however many save at the same time. */
export async function claimVersion(db: Executor, id: number, from: number, at: string) {
  const result = await db
    .updateTable('minutes')
    .set({ version: from + 1, updated_at: at })
    .where('id', '=', id)
    .where('version', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The committees whose role the event invites, with their rules. */
export function committeesOfEvent(db: Executor, eventId: number) {
  return db
    .selectFrom('committees')
    .select(['id', 'name', 'kind', 'rules', 'role_id'])
    .where('role_id', 'in', db.selectFrom('event_roles').select('role_id').where('event_id', '=', eventId))
    .orderBy('name')
    .execute();
}

export function committeeById(db: Executor, id: number) {
  return db
    .selectFrom('committees')
    .select(['id', 'name', 'kind', 'rules'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export { activeFunctions } from '../../db/user-memberships.ts';

/** Memberships of the committee on `day` (YYYY-MM-DD), with the holder's name. */
export function membersOn(db: Executor, committeeId: number, day: string) {
  return db
    .selectFrom('committee_memberships as m')
    .innerJoin('users', 'users.id', 'm.user_id')
    .select(['m.user_id', 'm.function', 'users.firstname', 'users.lastname'])
    .where('m.committee_id', '=', committeeId)
    .where('m.valid_from', '<=', day)
    .where('m.valid_until', '>=', day)
    .orderBy('users.lastname')
    .orderBy('users.firstname')
    .execute();
}

export function answersOf(db: Executor, eventId: number) {
  return db
    .selectFrom('event_attendance')
    .select(['user_id', 'status'])
    .where('event_id', '=', eventId)
    .execute();
}

/** The motions of the event's agenda items for the committee, with their latest resolution's record. */
export function motionsOfEvent(db: Executor, eventId: number, committeeId: number) {
  return db
    .selectFrom('motions')
    .select(['motions.id', 'motions.agenda_item_id', 'motions.title', 'motions.text', 'motions.state'])
    .where('motions.event_id', '=', eventId)
    .where('motions.committee_id', '=', committeeId)
    .where('motions.state', '!=', 'zurueckgezogen')
    .orderBy('motions.id')
    .execute();
}

export function resolutionsOfMotions(db: Executor, motionIds: readonly number[]) {
  if (motionIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('resolutions')
    .select(['id', 'motion_id', 'number', 'record'])
    .where('motion_id', 'in', [...motionIds])
    .where('corrects_id', 'is', null)
    .orderBy('id')
    .execute();
}
