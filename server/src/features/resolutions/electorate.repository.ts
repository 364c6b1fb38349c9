import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { Choice } from '@gremienportal/contracts/tally';

import type { Database, MotionElectorateTable } from '../../db/schema.ts';
import type { Dialect } from '../../db/dialect.ts';

/* Beschlussvorlagen and their votes (decision 190): Kysely only, no rules. */

/**
 * The electorate of a vote and what its members did (decision 190): fixed at opening, the voting
 * door's locked rows, open and named votes, secret ballots without a voter, reminders.
 */

type Executor = Kysely<Database> | Transaction<Database>;

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

/** Running votes in which the user is an elector and has neither voted, objected nor declared a conflict. */
export function pendingFor(db: Executor, userId: number, now: string) {
  return db
    .selectFrom('motions')
    .innerJoin('motion_electorate as e', 'e.motion_id', 'motions.id')
    .selectAll('motions')
    .where('e.user_id', '=', userId)
    .where('e.voted', '=', 0)
    .where('e.conflicted', '=', 0)
    .where('e.objected_at', 'is', null)
    .where('motions.state', '=', 'abstimmung')
    .where((eb) => eb.or([eb('motions.deadline', 'is', null), eb('motions.deadline', '>', now)]))
    .orderBy('motions.deadline')
    .orderBy('motions.id')
    .execute();
}

/**
 * Claims the reminder of electors who did neither vote nor object nor declare a conflict, at most
 * once per `since` (a conditional update, so several instances remind once); returns them.
 */
export async function claimReminders(db: Executor, motionId: number, since: string, at: string) {
  const due = await db
    .selectFrom('motion_electorate')
    .select('user_id')
    .where('motion_id', '=', motionId)
    .where('voted', '=', 0)
    .where('conflicted', '=', 0)
    .where('objected_at', 'is', null)
    .where((eb) => eb.or([eb('reminded_at', 'is', null), eb('reminded_at', '<', since)]))
    .execute();
  const claimed: number[] = [];
  for (const { user_id } of due) {
    const result = await db
      .updateTable('motion_electorate')
      .set({ reminded_at: at })
      .where('motion_id', '=', motionId)
      .where('user_id', '=', user_id)
      .where((eb) => eb.or([eb('reminded_at', 'is', null), eb('reminded_at', '<', since)]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) claimed.push(user_id);
  }
  return claimed;
}

/** Written votes handed in before the vote opened (offen and namentlich only). */
export function writtenVotes(db: Executor, motionId: number) {
  return db
    .selectFrom('motion_votes')
    .select(['user_id', 'choice'])
    .where('motion_id', '=', motionId)
    .execute();
}

export async function deleteVotesExcept(db: Executor, motionId: number, keep: readonly number[]) {
  let query = db.deleteFrom('motion_votes').where('motion_id', '=', motionId);
  if (keep.length > 0) query = query.where('user_id', 'not in', [...keep]);
  await query.execute();
}

export async function markVoted(db: Executor, motionId: number, userIds: readonly number[]) {
  if (userIds.length === 0) return;
  await db
    .updateTable('motion_electorate')
    .set({ voted: 1 })
    .where('motion_id', '=', motionId)
    .where('user_id', 'in', [...userIds])
    .execute();
}

/** The electors a member's view names: those with a declared conflict or an objection. */
export function notableElectors(db: Executor, motionId: number) {
  return db
    .selectFrom('motion_electorate')
    .select(['holder_name', 'conflicted', 'objected_at', 'objection_reason'])
    .where('motion_id', '=', motionId)
    .where((eb) => eb.or([eb('conflicted', '=', 1), eb('objected_at', 'is not', null)]))
    .orderBy('holder_name')
    .execute();
}
