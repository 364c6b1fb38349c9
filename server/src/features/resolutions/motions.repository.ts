import { parseCommitteeRules } from '@gremienportal/contracts/committees';
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

import type { MotionState } from '@gremienportal/contracts/resolutions';
import type { Database, MotionElectorateTable, MotionsTable } from '../../db/schema.ts';
import type { Dialect } from '../../db/dialect.ts';
import type { MotionRowFilter } from '../../policies/motions.policy.ts';

/* Beschlussvorlagen and their votes (decision 190): Kysely only, no rules. */

export type Executor = Kysely<Database> | Transaction<Database>;
export type MotionRow = Selectable<MotionsTable>;
export type ElectorRow = Selectable<MotionElectorateTable>;

export const parseRules = parseCommitteeRules;

export function findMotion(
  db: Executor,
  id: number,
  visible?: MotionRowFilter,
): Promise<MotionRow | undefined> {
  let query = db.selectFrom('motions').selectAll().where('id', '=', id);
  if (visible) query = query.where(visible);
  return query.executeTakeFirst();
}

/** The motion's row if `visible` lets it through, locked where the dialect can (SQLite serialises writers). */
export function lockMotion(
  trx: Transaction<Database>,
  dialect: Dialect,
  id: number,
  visible?: MotionRowFilter,
) {
  let query = trx.selectFrom('motions').selectAll().where('id', '=', id);
  if (visible) query = query.where(visible);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export { activeFunctions } from '../../db/user-memberships.ts';

export function committeeBrief(db: Executor, id: number) {
  return db
    .selectFrom('committees')
    .select(['id', 'name', 'kind', 'rules'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function agendaItem(db: Executor, id: number) {
  return db.selectFrom('agenda_items').select(['id', 'event_id']).where('id', '=', id).executeTakeFirst();
}

export async function insertMotion(db: Executor, row: Insertable<MotionsTable>): Promise<number> {
  const inserted = await db.insertInto('motions').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateMotion(db: Executor, id: number, patch: Updateable<MotionsTable>) {
  await db.updateTable('motions').set(patch).where('id', '=', id).execute();
}

export async function deleteMotion(db: Executor, id: number) {
  await db.deleteFrom('motions').where('id', '=', id).execute();
}

export async function replaceFiles(db: Executor, motionId: number, fileIds: readonly number[]) {
  await db.deleteFrom('motion_files').where('motion_id', '=', motionId).execute();
  if (fileIds.length === 0) return;
  await db
    .insertInto('motion_files')
    .values([...new Set(fileIds)].map((file_id) => ({ motion_id: motionId, file_id })))
    .execute();
}

/**
 * Moves the motion from one state to the next only if it is still in `from`: the transaction
 * whose update changes the row owns the transition (its audit entry and mails), once.
 */
export async function claimState(
  db: Executor,
  id: number,
  from: MotionState,
  patch: Updateable<MotionsTable> & { state: MotionState },
): Promise<boolean> {
  const result = await db
    .updateTable('motions')
    .set(patch)
    .where('id', '=', id)
    .where('state', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function latestResolution(db: Executor, motionId: number) {
  return db
    .selectFrom('resolutions')
    .select(['id', 'number', 'result'])
    .where('motion_id', '=', motionId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** Running Umlaufverfahren whose deadline has passed by `now`. */
export function dueUmlauf(db: Executor, now: string) {
  return db
    .selectFrom('motions')
    .selectAll()
    .where('state', '=', 'abstimmung')
    .where('procedure', '=', 'umlauf')
    .where('deadline', '<=', now)
    .orderBy('id')
    .execute();
}

/** The linked documents' ids, in id order. */
export async function fileIdsOf(db: Executor, motionId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('motion_files')
    .select('file_id')
    .where('motion_id', '=', motionId)
    .orderBy('file_id')
    .execute();
  return rows.map((row) => row.file_id);
}

export interface MotionListFilter {
  /** What the principal may see (motions.policy.ts); undefined: every motion (admins). */
  visible?: MotionRowFilter;
  committee_id?: number;
  event_id?: number;
}

/** The motions `visible` lets through, newest first. */
export function listMotions(db: Executor, filter: MotionListFilter) {
  let query = db.selectFrom('motions').selectAll();
  if (filter.visible) query = query.where(filter.visible);
  if (filter.committee_id !== undefined) query = query.where('committee_id', '=', filter.committee_id);
  if (filter.event_id !== undefined) query = query.where('event_id', '=', filter.event_id);
  return query.orderBy('id', 'desc').limit(500).execute();
}

/** Running Umlaufverfahren whose deadline falls before `until` (the 24-hour reminder). */
export function umlaufDueBefore(db: Executor, now: string, until: string) {
  return db
    .selectFrom('motions')
    .selectAll()
    .where('state', '=', 'abstimmung')
    .where('procedure', '=', 'umlauf')
    .where('deadline', '>', now)
    .where('deadline', '<=', until)
    .orderBy('id')
    .execute();
}

export * from './electorate.repository.ts';
