import { parseCommitteeRules } from '@gremienportal/contracts/committees';
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { Choice } from '@gremienportal/contracts/tally';

import type { MotionState } from '@gremienportal/contracts/resolutions';
import type { Database, MotionElectorateTable, MotionsTable } from '../../db/schema.ts';
import type { Dialect } from '../../db/dialect.ts';

/* Beschlussvorlagen and their votes (decision 190): Kysely only, no rules. */

export type Executor = Kysely<Database> | Transaction<Database>;
export type MotionRow = Selectable<MotionsTable>;
export type ElectorRow = Selectable<MotionElectorateTable>;

export const parseRules = parseCommitteeRules;

export function findMotion(db: Executor, id: number): Promise<MotionRow | undefined> {
  return db.selectFrom('motions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The motion's row, locked where the dialect can (SQLite serialises writers). */
export function lockMotion(trx: Transaction<Database>, dialect: Dialect, id: number) {
  const query = trx.selectFrom('motions').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** The member's electorate row, locked where the dialect can. */
export function lockElector(trx: Transaction<Database>, dialect: Dialect, motionId: number, userId: number) {
  const query = trx
    .selectFrom('motion_electorate')
    .selectAll()
    .where('motion_id', '=', motionId)
    .where('user_id', '=', userId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

export function findElector(db: Executor, motionId: number, userId: number) {
  return db
    .selectFrom('motion_electorate')
    .selectAll()
    .where('motion_id', '=', motionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The functions of the user's applied, active memberships in the committee. */
export async function activeFunctions(db: Executor, committeeId: number, userId: number) {
  const rows = await db
    .selectFrom('committee_memberships')
    .select('function')
    .where('committee_id', '=', committeeId)
    .where('user_id', '=', userId)
    .where('state', '=', 'active')
    .execute();
  return rows.map((row) => row.function);
}

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

export function eventExists(db: Executor, id: number) {
  return db.selectFrom('events').select('id').where('id', '=', id).executeTakeFirst();
}

export async function countFiles(db: Executor, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .selectFrom('files')
    .select('id')
    .where('id', 'in', [...ids])
    .execute();
  return rows.length;
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

/** Voting members on `day`: applied, active memberships except Ersatzmitglieder, with an account. */
export function votingMembers(db: Executor, committeeId: number, day: string) {
  return db
    .selectFrom('committee_memberships as m')
    .innerJoin('users', 'users.id', 'm.user_id')
    .select(['users.id as user_id', 'm.holder_name', 'm.function'])
    .where('m.committee_id', '=', committeeId)
    .where('m.state', '=', 'active')
    .where('m.function', '<>', 'ersatzmitglied')
    .where('m.valid_from', '<=', day)
    .where('m.valid_until', '>=', day)
    .orderBy('m.id')
    .execute();
}

export async function insertElectorate(db: Executor, rows: Insertable<MotionElectorateTable>[]) {
  if (rows.length === 0) return;
  await db.insertInto('motion_electorate').values(rows).execute();
}

/** The electorate with what a mail needs. */
export function electorate(db: Executor, motionId: number) {
  return db
    .selectFrom('motion_electorate as e')
    .innerJoin('users', 'users.id', 'e.user_id')
    .selectAll('e')
    .select(['users.email', 'users.title', 'users.lastname'])
    .where('e.motion_id', '=', motionId)
    .orderBy('e.holder_name')
    .orderBy('e.user_id')
    .execute();
}

export async function updateElector(
  db: Executor,
  motionId: number,
  userId: number,
  patch: Updateable<MotionElectorateTable>,
) {
  await db
    .updateTable('motion_electorate')
    .set(patch)
    .where('motion_id', '=', motionId)
    .where('user_id', '=', userId)
    .execute();
}

export async function markMailed(db: Executor, motionId: number, userIds: readonly number[], at: string) {
  if (userIds.length === 0) return;
  await db
    .updateTable('motion_electorate')
    .set({ mailed_at: at })
    .where('motion_id', '=', motionId)
    .where('user_id', 'in', [...userIds])
    .execute();
}

/** Records "first opened" once. */
export async function markFirstOpened(db: Executor, motionId: number, userId: number, at: string) {
  await db
    .updateTable('motion_electorate')
    .set({ first_opened_at: at })
    .where('motion_id', '=', motionId)
    .where('user_id', '=', userId)
    .where('first_opened_at', 'is', null)
    .execute();
}

export function findVote(db: Executor, motionId: number, userId: number) {
  return db
    .selectFrom('motion_votes')
    .selectAll()
    .where('motion_id', '=', motionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function upsertVote(db: Executor, motionId: number, userId: number, choice: Choice, at: string) {
  await db
    .insertInto('motion_votes')
    .values({ motion_id: motionId, user_id: userId, choice, updated_at: at })
    .onConflict((conflict) =>
      conflict.columns(['motion_id', 'user_id']).doUpdateSet({ choice, updated_at: at }),
    )
    .execute();
}

export async function deleteVote(db: Executor, motionId: number, userId: number) {
  await db
    .deleteFrom('motion_votes')
    .where('motion_id', '=', motionId)
    .where('user_id', '=', userId)
    .execute();
}

/** A secret ballot: a random id and the choice, nothing else. */
export async function insertBallot(db: Executor, id: string, motionId: number, choice: Choice) {
  await db.insertInto('motion_ballots').values({ id, motion_id: motionId, choice }).execute();
}

/** Online votes by choice: the ballots of a secret vote, else the open or named votes. */
export async function onlineCounts(db: Executor, motionId: number, secret: boolean) {
  const rows = secret
    ? await db
        .selectFrom('motion_ballots')
        .select(['choice', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('motion_id', '=', motionId)
        .groupBy('choice')
        .execute()
    : await db
        .selectFrom('motion_votes')
        .select(['choice', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('motion_id', '=', motionId)
        .groupBy('choice')
        .execute();
  const counts = { ja: 0, nein: 0, enthaltung: 0 };
  for (const row of rows) counts[row.choice] = Number(row.n);
  return counts;
}

/** Named votes with the holder's name, in name order. */
export function namedVotes(db: Executor, motionId: number) {
  return db
    .selectFrom('motion_votes as v')
    .innerJoin('motion_electorate as e', (join) =>
      join.onRef('e.motion_id', '=', 'v.motion_id').onRef('e.user_id', '=', 'v.user_id'),
    )
    .select(['e.holder_name as name', 'v.choice'])
    .where('v.motion_id', '=', motionId)
    .orderBy('e.holder_name')
    .execute();
}

/** Starting over: the electorate, the votes and the ballots go. */
export async function clearVoting(db: Executor, motionId: number) {
  await db.deleteFrom('motion_ballots').where('motion_id', '=', motionId).execute();
  await db.deleteFrom('motion_votes').where('motion_id', '=', motionId).execute();
  await db.deleteFrom('motion_electorate').where('motion_id', '=', motionId).execute();
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
