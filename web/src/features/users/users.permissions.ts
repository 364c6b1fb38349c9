import type { Role } from '@gremienportal/contracts/common';
import { ADMIN_ROLES, isSuperAdmin } from '@gremienportal/contracts/rules';

/** The web side of product.md P1.3; the server enforces the same rules. */

export const ADMIN_ROLES_HINT = 'Die Rollen Admin und Super-Admin kann nur ein Super-Admin vergeben.';

const isAdminRoleName = (name: string) => (ADMIN_ROLES as readonly string[]).includes(name);

export const holdsAdminRole = (roles: readonly string[]) => roles.some(isAdminRoleName);

interface Actor {
  id: number;
  roles: readonly string[];
}

/** Only a Super-Admin changes a user who holds Admin or Super-Admin. */
export const canManageUser = (actor: Actor, target: { roles: readonly string[] }) =>
  isSuperAdmin(actor.roles) || !holdsAdminRole(target.roles);

/** Nobody deletes their own account. */
export const canDeleteUser = (actor: Actor, target: { id: number; roles: readonly string[] }) =>
  actor.id !== target.id && canManageUser(actor, target);

/** Choices for the role select: ids as values; Admin and Super-Admin only for a Super-Admin. */
export function roleOptions(roles: readonly Role[], actorRoles: readonly string[]) {
  const mayGrantAdmin = isSuperAdmin(actorRoles);
  return roles.map((role) => ({
    value: String(role.id),
    label: role.name,
    disabled: !mayGrantAdmin && isAdminRoleName(role.name),
  }));
}

/** Role names (as the API returns them) to the ids the select works with. */
export const roleIdsOf = (names: readonly string[], roles: readonly Role[]) =>
  roles.filter((role) => names.includes(role.name)).map((role) => String(role.id));
