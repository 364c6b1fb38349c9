import { parseCommitteeRules } from '@gremienportal/contracts/committees';
import type { Kysely, Transaction } from 'kysely';

import type {
  CommitteeMembershipsTable,
  CommitteesTable,
  CommitteeTermsTable,
  Database,
  MembershipState,
} from '../../db/schema.ts';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Dialect } from '../../db/dialect.ts';

export type Executor = Kysely<Database> | Transaction<Database>;
export type CommitteeRow = Selectable<CommitteesTable> & {
  role_name: string;
  folder_breadcrumb: string | null;
};
export type TermRow = Selectable<CommitteeTermsTable>;
export type MembershipRow = Selectable<CommitteeMembershipsTable>;
export type MembershipWithUser = MembershipRow & {
  title: string | null;
  firstname: string | null;
  lastname: string | null;
  email: string | null;
  email_visible: number | null;
};

export const parseRules = parseCommitteeRules;

const committeeQuery = (db: Executor) =>
  db
    .selectFrom('committees')
    .innerJoin('roles', 'roles.id', 'committees.role_id')
    .leftJoin('folders', 'folders.id', 'committees.folder_id')
    .selectAll('committees')
    .select(['roles.name as role_name', 'folders.breadcrumb as folder_breadcrumb']);

export function listCommittees(db: Executor, ids?: readonly number[]): Promise<CommitteeRow[]> {
  let query = committeeQuery(db).orderBy('committees.name');
  if (ids) {
    if (ids.length === 0) return Promise.resolve([]);
    query = query.where('committees.id', 'in', ids);
  }
  return query.execute();
}

export function findCommittee(db: Executor, id: number): Promise<CommitteeRow | undefined> {
  return committeeQuery(db).where('committees.id', '=', id).executeTakeFirst();
}

/** Locks the committee's row where the dialect can: writes to its terms and members queue up. */
export async function lockCommittee(trx: Transaction<Database>, dialect: Dialect, id: number) {
  const query = trx.selectFrom('committees').select('id').where('id', '=', id);
  return dialect === 'postgres' ? query.forUpdate().executeTakeFirst() : query.executeTakeFirst();
}

export function committeeByName(db: Executor, name: string) {
  return db.selectFrom('committees').select(['id']).where('name', '=', name).executeTakeFirst();
}

export function committeeOfRole(db: Executor, roleId: number) {
  return db.selectFrom('committees').select(['id']).where('role_id', '=', roleId).executeTakeFirst();
}

export async function insertCommittee(db: Executor, row: Insertable<CommitteesTable>): Promise<number> {
  const inserted = await db.insertInto('committees').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateCommittee(db: Executor, id: number, patch: Updateable<CommitteesTable>) {
  await db.updateTable('committees').set(patch).where('id', '=', id).execute();
}

export async function deleteCommittee(db: Executor, id: number) {
  await db.deleteFrom('committees').where('id', '=', id).execute();
}

export function termsOf(db: Executor, committeeIds: readonly number[]): Promise<TermRow[]> {
  if (committeeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('committee_terms')
    .selectAll()
    .where('committee_id', 'in', committeeIds)
    .orderBy('starts_on', 'desc')
    .execute();
}

export function findTerm(db: Executor, id: number): Promise<TermRow | undefined> {
  return db.selectFrom('committee_terms').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertTerm(db: Executor, row: Insertable<CommitteeTermsTable>): Promise<number> {
  const inserted = await db
    .insertInto('committee_terms')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateTerm(db: Executor, id: number, patch: Updateable<CommitteeTermsTable>) {
  return db.updateTable('committee_terms').set(patch).where('id', '=', id).executeTakeFirst();
}

export async function deleteTerm(db: Executor, id: number) {
  await db.deleteFrom('committee_terms').where('id', '=', id).execute();
}

/** Terms that have ended by `today` and are not archived yet. */
export function termsToArchive(db: Executor, today: string) {
  return db
    .selectFrom('committee_terms')
    .innerJoin('committees', 'committees.id', 'committee_terms.committee_id')
    .select(['committee_terms.id', 'committee_terms.starts_on', 'committee_terms.ends_on', 'committees.name'])
    .where('committee_terms.archived', '=', 0)
    .where('committee_terms.ends_on', '<', today)
    .execute();
}

const membershipQuery = (db: Executor) =>
  db
    .selectFrom('committee_memberships as m')
    .leftJoin('users', 'users.id', 'm.user_id')
    .selectAll('m')
    .select([
      'users.title',
      'users.firstname',
      'users.lastname',
      'users.email',
      'users.email_visible_to_committees as email_visible',
    ]);

export function membershipsOfTerm(db: Executor, termId: number): Promise<MembershipWithUser[]> {
  return membershipQuery(db)
    .where('m.term_id', '=', termId)
    .orderBy('m.valid_from')
    .orderBy('m.id')
    .execute();
}

export function findMembership(db: Executor, id: number): Promise<MembershipWithUser | undefined> {
  return membershipQuery(db).where('m.id', '=', id).executeTakeFirst();
}

export function membershipsOfCommittee(db: Executor, committeeId: number): Promise<MembershipRow[]> {
  return db.selectFrom('committee_memberships').selectAll().where('committee_id', '=', committeeId).execute();
}

export function membershipsOfUser(db: Executor, userId: number): Promise<MembershipRow[]> {
  return db.selectFrom('committee_memberships').selectAll().where('user_id', '=', userId).execute();
}

export async function insertMembership(
  db: Executor,
  row: Insertable<CommitteeMembershipsTable>,
): Promise<number> {
  const inserted = await db
    .insertInto('committee_memberships')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateMembership(
  db: Executor,
  id: number,
  patch: Updateable<CommitteeMembershipsTable>,
) {
  await db.updateTable('committee_memberships').set(patch).where('id', '=', id).execute();
}

export async function deleteMembership(db: Executor, id: number) {
  await db.deleteFrom('committee_memberships').where('id', '=', id).execute();
}

/**
 * Moves a membership from one applied state to the next, only if it is still as read: the
 * instance whose update changes the row owns the transition (its audit entry and mail).
 */
export async function claimState(
  db: Executor,
  membership: Pick<MembershipRow, 'id' | 'state' | 'valid_from' | 'valid_until'>,
  to: MembershipState,
): Promise<boolean> {
  // The dates too: an admin's edit committed meanwhile decides its own state.
  const result = await db
    .updateTable('committee_memberships')
    .set({ state: to })
    .where('id', '=', membership.id)
    .where('state', '=', membership.state)
    .where('valid_from', '=', membership.valid_from)
    .where('valid_until', '=', membership.valid_until)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Memberships whose applied state the calendar has overtaken by `today`. */
export function dueMemberships(db: Executor, today: string): Promise<MembershipRow[]> {
  return db
    .selectFrom('committee_memberships')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'pending'), eb('valid_from', '<=', today)]),
        eb.and([eb('state', '<>', 'ended'), eb('valid_until', '<', today)]),
      ]),
    )
    .orderBy('id')
    .execute();
}

/** The committees (with their roles and rules) in which the user holds an applied, active membership. */
export function activeMembershipRoles(db: Executor, userId: number) {
  return db
    .selectFrom('committee_memberships as m')
    .innerJoin('committees', 'committees.id', 'm.committee_id')
    .select(['committees.id', 'committees.role_id', 'committees.rules', 'm.function'])
    .where('m.user_id', '=', userId)
    .where('m.state', '=', 'active')
    .execute();
}

export { activeCommitteeIds as committeesOfMember } from '../../db/user-memberships.ts';

export function userRoleRows(db: Executor, userId: number) {
  return db
    .selectFrom('user_roles')
    .select(['role_id', 'direct', 'via_committee'])
    .where('user_id', '=', userId)
    .execute();
}

export async function setViaCommittee(db: Executor, userId: number, roleId: number, via: boolean) {
  await db
    .updateTable('user_roles')
    .set({ via_committee: via ? 1 : 0 })
    .where('user_id', '=', userId)
    .where('role_id', '=', roleId)
    .execute();
}

export async function insertCommitteeRole(db: Executor, userId: number, roleId: number) {
  await db
    .insertInto('user_roles')
    .values({ user_id: userId, role_id: roleId, direct: 0, via_committee: 1 })
    .onConflict((conflict) => conflict.columns(['user_id', 'role_id']).doUpdateSet({ via_committee: 1 }))
    .execute();
}

export async function deleteUserRole(db: Executor, userId: number, roleId: number) {
  await db.deleteFrom('user_roles').where('user_id', '=', userId).where('role_id', '=', roleId).execute();
}

export function findUserBrief(db: Executor, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'title', 'firstname', 'lastname', 'email'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertRole(db: Executor, name: string): Promise<number> {
  const inserted = await db.insertInto('roles').values({ name }).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function deleteRole(db: Executor, id: number) {
  await db.deleteFrom('roles').where('id', '=', id).execute();
}

export function roleByName(db: Executor, name: string) {
  return db.selectFrom('roles').select(['id', 'name']).where('name', '=', name).executeTakeFirst();
}
