import type { z } from 'zod';
import type { RoleRef } from '@gremienportal/contracts/common';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/folders';
import { AppError, GERMAN } from '../../errors.ts';
import { principalLabel, type Principal } from '../../plugins/auth.ts';
import type { AuditActor } from '../../audit/record.ts';
import { resolveRoleRefs } from '../roles/roles.service.ts';
import type { RoleRow } from './files.repository.ts';

/** Who changes something, and from where (for the audit log). */
export interface Actor {
  principal: Principal;
  ip: string;
}

export const auditActor = (actor: Actor): AuditActor => ({
  id: actor.principal.id,
  label: principalLabel(actor.principal),
});

/** Upload fields arrive as multipart or JSON; they are checked like a route body (422 per field). */
export function parseFields<S extends z.ZodType>(
  schema: S,
  fields: Record<string, unknown>,
  extraErrors: Record<string, string[]> = {},
): z.output<S> {
  const result = schema.safeParse(fields);
  const errors: Record<string, string[]> = { ...extraErrors };
  if (!result.success) {
    for (const issue of result.error.issues) {
      (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
    }
  }
  if (Object.keys(errors).length > 0) throw new AppError('validation', GERMAN.validation, errors);
  return (result as { data: z.output<S> }).data;
}

/**
 * Role ids for the file and folder forms: the roles module resolves them; an unknown role is a
 * 422 under `field`, naming the first one.
 */
export function resolveRoles(all: readonly RoleRow[], refs: readonly RoleRef[], field: string): number[] {
  return resolveRoleRefs(all, refs, field, { message: FOLDER_MESSAGES.unknownRole, report: 'first' }).map(
    (role) => role.id,
  );
}
