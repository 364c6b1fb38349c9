import type { RoleRef } from '@gremienportal/contracts/common';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/folders';
import { resolveRoleRefs } from '../roles/roles.service.ts';
import type { RoleRow } from './folders.repository.ts';

/**
 * Role ids for the file and folder forms: the roles module resolves them; an unknown role is a
 * 422 under `field`, naming the first one.
 */
export function resolveRoles(all: readonly RoleRow[], refs: readonly RoleRef[], field: string): number[] {
  return resolveRoleRefs(all, refs, field, { message: FOLDER_MESSAGES.unknownRole, report: 'first' }).map(
    (role) => role.id,
  );
}

/** The names of the roles with these ids, in the order of `all` (for audit details). */
export const namesOfRoles = (all: readonly RoleRow[], ids: readonly number[]): string[] =>
  all.filter((role) => ids.includes(role.id)).map((role) => role.name);
