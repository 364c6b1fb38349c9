import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool, Transaction } from 'kysely';
import type { ResolutionResult } from '@gremienportal/contracts/resolutions';

import type { Database, ResolutionsTable } from '../../db/schema.ts';
import type { Dialect } from '../../db/dialect.ts';

/*
 * The Beschlussbuch's rows (decision 190): read the closed motion's votes, number and append
 * resolutions. There is deliberately no update and no delete of a resolution here.
 */

export type Executor = Kysely<Database> | Transaction<Database>;
export { committeeBrief, findMotion, parseRules, fileIdsOf as motionFileIds } from './motions.repository.ts';
export { activeCommitteeIds as committeesOfMember } from '../../db/user-memberships.ts';

export type ResolutionRow = Selectable<ResolutionsTable>;

/** The user's applied, active membership with the function `vorsitz` in the committee. */
export function activeChairship(db: Executor, committeeId: number, userId: number) {
  return db
    .selectFrom('committee_memberships')
    .select(['id', 'holder_name'])
    .where('committee_id', '=', committeeId)
    .where('user_id', '=', userId)
    .where('function', '=', 'vorsitz')
    .where('state', '=', 'active')
    .executeTakeFirst();
}

export function electorateOf(db: Executor, motionId: number) {
  return db
    .selectFrom('motion_electorate')
    .select(['user_id', 'holder_name', 'function', 'voted', 'conflicted'])
    .where('motion_id', '=', motionId)
    .execute();
}

export function votesOf(db: Executor, motionId: number) {
  return db
    .selectFrom('motion_votes')
    .select(['user_id', 'choice'])
    .where('motion_id', '=', motionId)
    .execute();
}

export function ballotChoicesOf(db: Executor, motionId: number) {
  return db.selectFrom('motion_ballots').select('choice').where('motion_id', '=', motionId).execute();
}

/** The committee's term that contains `day` (YYYY-MM-DD). */
export function termOn(db: Executor, committeeId: number, day: string) {
  return db
    .selectFrom('committee_terms')
    .select(['id', 'starts_on', 'ends_on'])
    .where('committee_id', '=', committeeId)
    .where('starts_on', '<=', day)
    .where('ends_on', '>=', day)
    .orderBy('starts_on', 'desc')
    .executeTakeFirst();
}

/**
 * The next number of the committee in the term, with the counter row locked (PostgreSQL
 * `FOR UPDATE`; SQLite serialises writers, and the insert takes the write lock first).
 */
export async function nextSequence(
  trx: Transaction<Database>,
  dialect: Dialect,
  committeeId: number,
  termId: number,
): Promise<number> {
  await trx
    .insertInto('resolution_counters')
    .values({ committee_id: committeeId, term_id: termId, last_number: 0 })
    .onConflict((conflict) => conflict.columns(['committee_id', 'term_id']).doNothing())
    .execute();
  const query = trx
    .selectFrom('resolution_counters')
    .select('last_number')
    .where('committee_id', '=', committeeId)
    .where('term_id', '=', termId);
  const row = await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
  const next = Number(row.last_number) + 1;
  await trx
    .updateTable('resolution_counters')
    .set({ last_number: next })
    .where('committee_id', '=', committeeId)
    .where('term_id', '=', termId)
    .execute();
  return next;
}

/** Locks the committee's row (PostgreSQL): the chain of one committee grows one entry at a time. */
export async function lockCommitteeChain(trx: Transaction<Database>, dialect: Dialect, committeeId: number) {
  const query = trx.selectFrom('committees').select('id').where('id', '=', committeeId);
  await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** The committee's last entry of the chain (by id: the order of appending). */
export function lastOfChain(db: Executor, committeeId: number) {
  return db
    .selectFrom('resolutions')
    .select(['id', 'hash'])
    .where('committee_id', '=', committeeId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Whether another committee's entries already carry numbers with this prefix. */
export async function prefixTakenByOther(db: Executor, committeeId: number, prefix: string) {
  const row = await db
    .selectFrom('resolutions')
    .select('id')
    .where('committee_id', '<>', committeeId)
    .where('number', 'like', `${prefix} %`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertResolution(
  trx: Executor,
  row: {
    committee_id: number;
    term_id: number;
    motion_id: number | null;
    number: string;
    sequence: number;
    result: ResolutionResult;
    established_at: string;
    record: string;
    previous_hash: string | null;
    hash: string;
    corrects_id: number | null;
  },
): Promise<number> {
  const inserted = await trx.insertInto('resolutions').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** Moves the motion to 'festgestellt' only from the state it was read in: one establishment wins. */
export async function claimEstablished(trx: Executor, motionId: number, from: string, now: string) {
  const result = await trx
    .updateTable('motions')
    .set({ state: 'festgestellt', updated_at: now })
    .where('id', '=', motionId)
    .where('state', '=', from as never)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function findResolution(
  db: Executor,
  id: number,
  visible?: (eb: ExpressionBuilder<Database, 'resolutions'>) => Expression<SqlBool>,
) {
  let query = db.selectFrom('resolutions').selectAll().where('id', '=', id);
  if (visible) query = query.where(visible);
  return query.executeTakeFirst();
}

export interface ResolutionFilter {
  committeeIds?: readonly number[];
  committee_id?: number;
  term_id?: number;
  result?: ResolutionResult;
  /** UTC bounds of a calendar year in Berlin. */
  from?: string;
  until?: string;
}

export function listResolutions(db: Executor, filter: ResolutionFilter) {
  let query = db
    .selectFrom('resolutions')
    .innerJoin('committees', 'committees.id', 'resolutions.committee_id')
    .selectAll('resolutions')
    .select('committees.name as committee_name');
  if (filter.committeeIds) {
    if (filter.committeeIds.length === 0) return Promise.resolve([]);
    query = query.where('resolutions.committee_id', 'in', filter.committeeIds);
  }
  if (filter.committee_id !== undefined)
    query = query.where('resolutions.committee_id', '=', filter.committee_id);
  if (filter.term_id !== undefined) query = query.where('resolutions.term_id', '=', filter.term_id);
  if (filter.result !== undefined) query = query.where('resolutions.result', '=', filter.result);
  if (filter.from !== undefined) query = query.where('resolutions.established_at', '>=', filter.from);
  if (filter.until !== undefined) query = query.where('resolutions.established_at', '<', filter.until);
  return query.orderBy('resolutions.established_at', 'desc').orderBy('resolutions.id', 'desc').execute();
}

/** Every entry, chain by chain in appending order: what `verify-resolutions` recomputes. */
export function allForVerification(db: Executor) {
  return db
    .selectFrom('resolutions')
    .select([
      'id',
      'committee_id',
      'term_id',
      'number',
      'sequence',
      'result',
      'record',
      'previous_hash',
      'hash',
    ])
    .orderBy('committee_id')
    .orderBy('id')
    .execute();
}

export function allCounters(db: Executor) {
  return db.selectFrom('resolution_counters').selectAll().execute();
}

/** Recipients of the result: the committee's members with an applied, active membership. */
export function activeMemberAddresses(db: Executor, committeeId: number) {
  return db
    .selectFrom('committee_memberships as m')
    .innerJoin('users', 'users.id', 'm.user_id')
    .select(['users.id', 'users.title', 'users.lastname', 'users.email'])
    .distinct()
    .where('m.committee_id', '=', committeeId)
    .where('m.state', '=', 'active')
    .execute();
}

export function userName(db: Executor, id: number) {
  return db
    .selectFrom('users')
    .select(['firstname', 'lastname', 'two_factor_enabled'])
    .where('id', '=', id)
    .executeTakeFirst();
}
