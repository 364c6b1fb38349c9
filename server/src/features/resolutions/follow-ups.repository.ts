import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** Umsetzung of resolutions (decision 190): one row per resolution, outside the chain. */

type Executor = Kysely<Database> | Transaction<Database>;

export interface FollowUpRow {
  resolution_id: number;
  responsible_id: number | null;
  responsible_first: string | null;
  responsible_last: string | null;
  due_on: string | null;
  status: 'offen' | 'erledigt';
  note: string;
  updated_at: string;
}

export async function followUpsOf(db: Executor, resolutionIds: readonly number[]) {
  const map = new Map<number, FollowUpRow>();
  if (resolutionIds.length === 0) return map;
  const rows = await db
    .selectFrom('resolution_follow_ups as f')
    .leftJoin('users', 'users.id', 'f.responsible_id')
    .select([
      'f.resolution_id',
      'f.responsible_id',
      'users.firstname as responsible_first',
      'users.lastname as responsible_last',
      'f.due_on',
      'f.status',
      'f.note',
      'f.updated_at',
    ])
    .where('f.resolution_id', 'in', [...resolutionIds])
    .orderBy('f.id')
    .execute();
  for (const row of rows) map.set(row.resolution_id, row as FollowUpRow);
  return map;
}

/** Replaces the resolution's follow-up (one row; a reminder is due again after a change). */
export async function putFollowUp(
  db: Executor,
  resolutionId: number,
  values: {
    responsible_id: number | null;
    due_on: string | null;
    status: 'offen' | 'erledigt';
    note: string;
    updated_at: string;
  },
) {
  const updated = await db
    .updateTable('resolution_follow_ups')
    .set({ ...values, reminded_on: null })
    .where('resolution_id', '=', resolutionId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db
    .insertInto('resolution_follow_ups')
    .values({ resolution_id: resolutionId, ...values })
    .execute();
}

/** Open follow-ups past their due day whose responsible person was not reminded today. */
export function overdueUnreminded(db: Executor, today: string) {
  return db
    .selectFrom('resolution_follow_ups as f')
    .innerJoin('resolutions', 'resolutions.id', 'f.resolution_id')
    .innerJoin('users', 'users.id', 'f.responsible_id')
    .select([
      'f.id',
      'f.resolution_id',
      'f.due_on',
      'resolutions.number',
      'resolutions.record',
      'users.email',
      'users.title',
      'users.lastname',
    ])
    .where('f.status', '=', 'offen')
    .where('f.due_on', '<', today)
    .where((eb) => eb.or([eb('f.reminded_on', 'is', null), eb('f.reminded_on', '<', today)]))
    .orderBy('f.id')
    .execute();
}

/** Claims today's reminder of one follow-up: true once across instances. */
export async function claimFollowUpReminder(db: Executor, id: number, today: string) {
  const result = await db
    .updateTable('resolution_follow_ups')
    .set({ reminded_on: today })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('reminded_on', 'is', null), eb('reminded_on', '<', today)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function userById(db: Executor, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'firstname', 'lastname'])
    .where('id', '=', id)
    .executeTakeFirst();
}
