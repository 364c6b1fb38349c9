import type { Kysely, Transaction } from 'kysely';
import type { Role, RoleRef } from '@gremienportal/contracts/common';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/folders';
import { unknownRoleMessage } from '@gremienportal/contracts/users';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import * as repo from './roles.repository.ts';
import type { Principal } from '../../policies/principal.ts';
import { visibleRoles } from '../../policies/roles.policy.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** The roles feature's use case: the roles the principal may know of (the forms offer them). */
export function rolesService(ctx: AppContext) {
  return {
    list: async (principal: Principal): Promise<Role[]> =>
      visibleRoles(principal, await repo.allRoles(ctx.db.kysely)),
  };
}

/** Every role by id, read with the caller's executor (inside its transaction, when it has one). */
export function allRoles(db: Executor): Promise<Role[]> {
  return repo.allRoles(db);
}

export interface RoleRefOptions {
  /** The German message for one unknown reference (every feature names the role it did not find). */
  message?: (ref: RoleRef) => string;
  /**
   * `all` (default): every unknown reference is listed under the field; `first`: only the first
   * one (what the file and folder forms have always answered).
   */
  report?: 'all' | 'first';
}

/**
 * Role references to roles, sorted by id and each once. A reference is an id (a number or a
 * numeric string, as multipart forms send it) or a name (exact first, then ignoring case); an
 * unknown one is a 422 under `field`.
 */
export function resolveRoleRefs(
  roles: readonly Role[],
  refs: readonly RoleRef[],
  field: string,
  options: RoleRefOptions = {},
): Role[] {
  const message = options.message ?? unknownRoleMessage;
  const found = new Map<number, Role>();
  const unknown: string[] = [];
  for (const ref of refs) {
    const asId = typeof ref === 'number' ? ref : /^\d+$/.test(ref) ? Number(ref) : undefined;
    const name = String(ref);
    const role =
      asId !== undefined
        ? roles.find((r) => r.id === asId)
        : (roles.find((r) => r.name === name) ??
          roles.find((r) => r.name.toLowerCase() === name.toLowerCase()));
    if (role) found.set(role.id, role);
    else unknown.push(message(ref));
    if (unknown.length > 0 && options.report === 'first') break;
  }
  if (unknown.length > 0) throw new AppError('validation', unknown[0]!, { [field]: unknown });
  return [...found.values()].sort((a, b) => a.id - b.id);
}

/**
 * Role ids for the folder and document forms: an unknown role is a 422 under `field`, naming the
 * first one.
 */
export function resolveRoles(all: readonly Role[], refs: readonly RoleRef[], field: string): number[] {
  return resolveRoleRefs(all, refs, field, { message: FOLDER_MESSAGES.unknownRole, report: 'first' }).map(
    (role) => role.id,
  );
}

/** The names of the roles with these ids, in the order of `all` (for audit details). */
export const namesOfRoles = (all: readonly Role[], ids: readonly number[]): string[] =>
  all.filter((role) => ids.includes(role.id)).map((role) => role.name);
