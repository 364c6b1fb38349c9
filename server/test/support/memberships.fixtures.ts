import type { MemberFunction } from '@gremienportal/contracts/committees';
import type { RoleName } from '@gremienportal/contracts/common';
import type { TestApp } from './build-test-app.ts';
import { roleIds } from './factories.ts';

/*
 * A committee membership as the committees feature leaves it (decision 189), written straight into
 * the tables: the membership row and, while it is active, the `user_roles` row it gives
 * (`via_committee = 1`, kept beside a direct grant). For tests of the readers of those rows.
 */

/** The committee granting `role` (the seed has Aufsichtsrat and Vertreterversammlung). */
export async function committeeOf(t: TestApp, role: RoleName): Promise<{ id: number; name: string }> {
  const [roleId] = await roleIds(t, [role]);
  const found = await t.db.kysely
    .selectFrom('committees')
    .select(['id', 'name'])
    .where('role_id', '=', roleId!)
    .executeTakeFirst();
  if (found) return found;
  const now = t.clock.now().toISOString();
  return t.db.kysely
    .insertInto('committees')
    .values({
      name: `Gremium ${role}`,
      kind: 'ausschuss',
      role_id: roleId!,
      folder_id: null,
      rules: '{}',
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

export interface MembershipInput {
  role: RoleName;
  userId: number;
  term?: { start: string; end: string };
  from?: string;
  until?: string;
  function?: MemberFunction;
  rank?: number | null;
  /** Whether the membership gives its role now (the sync's `state = 'active'`); default true. */
  givesRole?: boolean;
}

/** Inserts a term, a membership in it and, when it gives its role, the `via_committee` row. */
export async function insertMembership(
  t: TestApp,
  input: MembershipInput,
): Promise<{ id: number; committeeId: number }> {
  const committee = await committeeOf(t, input.role);
  const now = t.clock.now().toISOString();
  const term = input.term ?? { start: '2026-07-01', end: '2030-06-30' };
  const { id: termId } = await t.db.kysely
    .insertInto('committee_terms')
    .values({
      committee_id: committee.id,
      starts_on: term.start,
      ends_on: term.end,
      folder_id: null,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const givesRole = input.givesRole ?? true;
  const { id } = await t.db.kysely
    .insertInto('committee_memberships')
    .values({
      committee_id: committee.id,
      term_id: termId,
      user_id: input.userId,
      holder_name: 'Mitglied',
      function: input.function ?? 'mitglied',
      rank: input.rank ?? null,
      valid_from: input.from ?? term.start,
      valid_until: input.until ?? term.end,
      district: null,
      reason: null,
      state: givesRole ? 'active' : 'ended',
      succeeded_by: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (givesRole) {
    const [roleId] = await roleIds(t, [input.role]);
    await t.db.kysely
      .insertInto('user_roles')
      .values({ user_id: input.userId, role_id: roleId!, direct: 0, via_committee: 1 })
      .onConflict((conflict) => conflict.columns(['user_id', 'role_id']).doUpdateSet({ via_committee: 1 }))
      .execute();
  }
  return { id, committeeId: committee.id };
}

/** The user's `user_roles` rows by role name: `{ direct, via_committee }`. */
export async function roleRowsOf(t: TestApp, userId: number) {
  const rows = await t.db.kysely
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['roles.name', 'user_roles.direct', 'user_roles.via_committee'])
    .where('user_roles.user_id', '=', userId)
    .orderBy('roles.name')
    .execute();
  return Object.fromEntries(
    rows.map((row) => [row.name, { direct: row.direct, via_committee: row.via_committee }]),
  );
}
