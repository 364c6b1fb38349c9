import type { Kysely, Transaction } from 'kysely';
import { termTitle, type OwnMembership } from '@gremienportal/contracts/committees';
import type { Database } from './schema.ts';

/*
 * A person's own committee memberships (decision 189), as the account page and the admins' user
 * page show them. Shared by the account and users features; the committees feature owns the rows.
 */

type Executor = Kysely<Database> | Transaction<Database>;

/** The user's memberships, active ones first, then the newest start first. */
export async function membershipsOfUser(db: Executor, userId: number): Promise<OwnMembership[]> {
  const rows = await db
    .selectFrom('committee_memberships')
    .innerJoin('committees', 'committees.id', 'committee_memberships.committee_id')
    .innerJoin('committee_terms', 'committee_terms.id', 'committee_memberships.term_id')
    .select([
      'committee_memberships.id',
      'committee_memberships.function',
      'committee_memberships.rank',
      'committee_memberships.valid_from',
      'committee_memberships.valid_until',
      'committee_memberships.state',
      'committees.id as committee_id',
      'committees.name as committee_name',
      'committee_terms.starts_on',
      'committee_terms.ends_on',
    ])
    .where('committee_memberships.user_id', '=', userId)
    .execute();
  return rows
    .map((row): OwnMembership => ({
      id: row.id,
      committee: { id: row.committee_id, name: row.committee_name },
      term_title: termTitle(row.starts_on, row.ends_on),
      function: row.function,
      rank: row.rank,
      from: row.valid_from,
      until: row.valid_until,
      // What the portal has applied, as the committee's own answers say (decision 189).
      active: row.state === 'active',
    }))
    .sort(
      (a, b) =>
        Number(b.active) - Number(a.active) ||
        (a.from < b.from ? 1 : a.from > b.from ? -1 : 0) ||
        b.id - a.id,
    );
}

/** Ids of the committees the user belongs to now: an applied, active membership of any function. */
export async function activeCommitteeIds(db: Executor, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('committee_memberships')
    .select('committee_id')
    .distinct()
    .where('user_id', '=', userId)
    .where('state', '=', 'active')
    .execute();
  return rows.map((row) => row.committee_id);
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
