import { ADMIN_ROLES, isAdmin } from '@gremienportal/contracts/common';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Principal } from './principal.ts';
import { SUPER_ADMIN } from './principal.ts';

type NamedRole = { name: string };

/** Admin and Super-Admin: the roles only a Super-Admin grants or revokes (product.md P1.3). */
export const isAdminRole = (role: NamedRole) => (ADMIN_ROLES as readonly string[]).includes(role.name);

/**
 * Accounts holding at least one of `roleIds`, as SQL on `users` (the recipients of a notification
 * and an event's invitees start from it); nothing for no roles. Aliased, so it also works inside a
 * query that joins `user_roles` itself.
 */
export function holdsAnyRole(
  roleIds: readonly number[],
): (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool> {
  const ids = [...roleIds];
  return (eb) =>
    ids.length === 0
      ? sql<SqlBool>`1 = 0`
      : eb.exists(
          eb
            .selectFrom('user_roles as held')
            .select('held.user_id')
            .whereRef('held.user_id', '=', 'users.id')
            .where('held.role_id', 'in', ids),
        );
}

export const holdsSuperAdmin = (roles: readonly NamedRole[]) =>
  roles.some((role) => role.name === SUPER_ADMIN);

/** Admins read every account; anyone else only their own. */
export const mayReadUser = (principal: Pick<Principal, 'id' | 'isAdmin'>, userId: number) =>
  principal.isAdmin || principal.id === userId;

/** Only administrators manage accounts; `roleNames` are read on the locked actor row. */
export const mayManageUsers = (roleNames: readonly string[]) => isAdmin(roleNames);

/** Only a Super-Admin changes or deletes a user who holds Admin or Super-Admin (product.md P1.3). */
export const mayChangeUser = (actorIsSuperAdmin: boolean, target: { roles: readonly NamedRole[] }) =>
  actorIsSuperAdmin || !isAdmin(target.roles.map((role) => role.name));

/** Only a Super-Admin grants or revokes Admin and Super-Admin (product.md P1.3). */
export const mayGrantOrRevoke = (actorIsSuperAdmin: boolean, changedRoles: readonly NamedRole[]) =>
  actorIsSuperAdmin || !changedRoles.some(isAdminRole);

/** Nobody deletes their own account (product.md P1.3). */
export const mayDeleteUser = (principal: Pick<Principal, 'id'>, userId: number) => principal.id !== userId;

/** Name and e-mail of one's own account are changed by administrators only. */
export const mayChangeOwnProfile = (principal: Pick<Principal, 'isAdmin'>) => principal.isAdmin;
