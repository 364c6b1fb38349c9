import { ROLE_NAMES } from '@gremienportal/contracts/common';
import type { Principal } from './principal.ts';

/**
 * Which roles a principal may know of (decision 189): Admins every role; anyone else the roles
 * the specification names and the roles they hold. A committee's role carries the committee's
 * name, and a committee one does not belong to answers 404, so its name must not show here.
 */
export function visibleRoles<R extends { id: number; name: string }>(
  principal: Pick<Principal, 'isAdmin' | 'roleIds'>,
  roles: readonly R[],
): R[] {
  if (principal.isAdmin) return [...roles];
  const held = new Set(principal.roleIds);
  return roles.filter((role) => held.has(role.id) || (ROLE_NAMES as readonly string[]).includes(role.name));
}
