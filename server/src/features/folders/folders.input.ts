import type { RoleRef } from '@gremienportal/contracts/common';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/folders';
import { principalLabel, type Principal } from '../../plugins/auth.ts';
import type { AuditActor } from '../audit/audit-log.service.ts';
import { resolveRoleRefs } from '../roles/roles.service.ts';
import type { RoleRow } from './folders.repository.ts';

/** Who changes something, and from where (for the audit log). */
export interface Actor {
  principal: Principal;
  ip: string;
}

export const auditActor = (actor: Actor): AuditActor => ({
  id: actor.principal.id,
  label: principalLabel(actor.principal),
});

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
