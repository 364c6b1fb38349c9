import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, NewUserRow, UserRow, UserUpdate } from '../../db/schema.ts';
import type { Dialect } from '../../db/dialect.ts';
import { rolesByObject } from '../../db/role-links.ts';
import { holdsAnyRole } from '../../policies/users.policy.ts';
import { membersWithRoles, type ListedMember } from '../../db/member-lists.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export type UserRecord = Pick<
  UserRow,
  'id' | 'title' | 'firstname' | 'lastname' | 'email' | 'created_at' | 'updated_at'
> & {
  has_password: boolean;
  /** A second factor is set up (decision 126). */
  two_factor: boolean;
  /** Every role the user holds (effective roles, decision 189), ordered by role id. */
  roles: HeldRole[];
};

/**
 * One `user_roles` row with where it comes from (decision 189): given by an admin (`direct`), by an
 * active committee membership (`viaCommittee`), or both. `committee` is the committee whose role it
 * is, when the membership gives it.
 */
export interface HeldRole {
  id: number;
  name: string;
  direct: boolean;
  viaCommittee: boolean;
  committee: { id: number; name: string } | null;
}

const userColumns = [
  'users.id',
  'users.title',
  'users.firstname',
  'users.lastname',
  'users.email',
  'users.password_hash',
  'users.two_factor_enabled',
  'users.created_at',
  'users.updated_at',
] as const;

const rolesByUser = (db: Executor, userIds: number[]) => rolesByObject(db, 'user_roles', userIds);

/** The held roles of each user, by user id, each list ordered by role id. */
async function heldRolesByUser(db: Executor, userIds: readonly number[]): Promise<Map<number, HeldRole[]>> {
  const byUser = new Map<number, HeldRole[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    // A committee grants one role and a role belongs to one committee (unique `committees.role_id`).
    .leftJoin('committees', 'committees.role_id', 'roles.id')
    .select([
      'user_roles.user_id',
      'user_roles.direct',
      'user_roles.via_committee',
      'roles.id',
      'roles.name',
      'committees.id as committee_id',
      'committees.name as committee_name',
    ])
    .where('user_roles.user_id', 'in', [...userIds])
    .orderBy('roles.id')
    .execute();
  for (const row of rows) {
    const viaCommittee = row.via_committee === 1;
    const list = byUser.get(row.user_id) ?? [];
    list.push({
      id: row.id,
      name: row.name,
      direct: row.direct === 1,
      viaCommittee,
      committee:
        viaCommittee && row.committee_id !== null && row.committee_name !== null
          ? { id: row.committee_id, name: row.committee_name }
          : null,
    });
    byUser.set(row.user_id, list);
  }
  return byUser;
}

function toRecord(
  row: Pick<
    UserRow,
    | 'id'
    | 'title'
    | 'firstname'
    | 'lastname'
    | 'email'
    | 'password_hash'
    | 'two_factor_enabled'
    | 'created_at'
    | 'updated_at'
  >,
  roles: HeldRole[],
): UserRecord {
  const { password_hash, two_factor_enabled, ...rest } = row;
  return { ...rest, has_password: password_hash !== null, two_factor: Boolean(two_factor_enabled), roles };
}

/** Every user, sorted by last name, then first name. */
export async function listUsers(db: Executor): Promise<UserRecord[]> {
  const rows = await db
    .selectFrom('users')
    .select(userColumns)
    .orderBy('users.lastname')
    .orderBy('users.firstname')
    .orderBy('users.id')
    .execute();
  const roles = await heldRolesByUser(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toRecord(row, roles.get(row.id) ?? []));
}

export async function findUser(db: Executor, id: number): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').select(userColumns).where('users.id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const roles = await heldRolesByUser(db, [id]);
  return toRecord(row, roles.get(id) ?? []);
}

/** E-mail addresses are stored in lower case; the comparison ignores case all the same. */
export async function emailTaken(db: Executor, email: string, exceptUserId?: number): Promise<boolean> {
  let query = db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase());
  if (exceptUserId !== undefined) query = query.where('id', '<>', exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

export async function insertUser(db: Executor, row: NewUserRow): Promise<number> {
  const inserted = await db.insertInto('users').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateUser(db: Executor, id: number, patch: UserUpdate): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

/**
 * Makes the user's direct roles exactly `roleIds` (decision 189); what a committee membership gives
 * stays. A role no longer given directly loses `direct` and its row goes only when no membership
 * gives it either. Only the links that change are touched: a kept link keeps its row, so a
 * concurrent `FOR UPDATE` on it (the last-Super-Admin check) still finds it instead of skipping a
 * deleted and re-inserted copy.
 */
export async function replaceUserRoles(
  db: Executor,
  userId: number,
  roleIds: readonly number[],
): Promise<void> {
  const ids = [...new Set(roleIds)];
  let revoked = db
    .updateTable('user_roles')
    .set({ direct: 0 })
    .where('user_id', '=', userId)
    .where('direct', '=', 1);
  if (ids.length > 0) revoked = revoked.where('role_id', 'not in', ids);
  await revoked.execute();
  await db
    .deleteFrom('user_roles')
    .where('user_id', '=', userId)
    .where('direct', '=', 0)
    .where('via_committee', '=', 0)
    .execute();
  if (ids.length === 0) return;
  await db
    .insertInto('user_roles')
    .values(ids.map((role_id) => ({ user_id: userId, role_id, direct: 1, via_committee: 0 })))
    .onConflict((conflict) =>
      conflict.columns(['user_id', 'role_id']).doUpdateSet({ direct: 1 }).where('user_roles.direct', '=', 0),
    )
    .execute();
}

/** Sessions, role links and password links go with the user (foreign keys with ON DELETE CASCADE). */
export async function deleteUser(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/**
 * Ids of the users holding a role, locked for the rest of the transaction where the dialect can:
 * on PostgreSQL two concurrent demotions must not both see "another Super-Admin is left"
 * (`FOR UPDATE` makes the second wait and then see the first one's change). SQLite serialises
 * writing transactions anyway and knows no `FOR UPDATE`.
 */
export async function lockUsersWithRole(
  trx: Transaction<Database>,
  dialect: Dialect,
  roleId: number,
): Promise<number[]> {
  // A fixed order, so concurrent lockers queue up instead of deadlocking.
  const query = trx
    .selectFrom('user_roles')
    .select('user_id')
    .where('role_id', '=', roleId)
    .orderBy('user_id');
  const rows = dialect === 'postgres' ? await query.forUpdate().execute() : await query.execute();
  return rows.map((row) => row.user_id);
}

/**
 * Locks user rows for the rest of the transaction, so a permission check made on them still holds
 * when the transaction writes: PostgreSQL `FOR UPDATE` (a concurrent writer of the same account
 * waits, and then reads what the first one committed); SQLite has no `FOR UPDATE`, its
 * transactions start as writers (`BEGIN IMMEDIATE`, see db/database.ts) and so run one at a time.
 * Ascending ids in one statement, so two requests locking the same pair queue instead of
 * deadlocking. Returns the ids that exist.
 */
export async function lockUsers(
  trx: Transaction<Database>,
  dialect: Dialect,
  ids: number[],
): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const query = trx.selectFrom('users').select('id').where('id', 'in', unique).orderBy('id');
  const rows = dialect === 'postgres' ? await query.forUpdate().execute() : await query.execute();
  return rows.map((row) => row.id);
}

/** The role names a user holds now (inside a transaction: after `lockUsers`, the committed state). */
export async function roleNamesOf(db: Executor, userId: number): Promise<string[]> {
  const roles = await rolesByUser(db, [userId]);
  return (roles.get(userId) ?? []).map((role) => role.name);
}

/** All of the user's roles, so the caller can check what they may see. */
export type Recipient = ListedMember;

/**
 * Every user holding at least one of the roles, each once, with all of their roles (so the caller
 * can check what they may see): the recipients of notification mails.
 */
export async function usersWithAnyRole(db: Executor, roleIds: readonly number[]): Promise<Recipient[]> {
  if (roleIds.length === 0) return [];
  return membersWithRoles(db, holdsAnyRole(roleIds));
}
