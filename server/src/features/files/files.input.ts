import type { z } from 'zod';
import type { RoleRef } from '@gremienportal/contracts/common';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/folders';
import { AppError, GERMAN, invalidField } from '../../errors.ts';
import { principalLabel, type Principal } from '../../plugins/auth.ts';
import type { AuditActor } from '../../audit/record.ts';
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
 * Roles given by id (number or numeric string) or by name, as role ids in role order; an
 * unknown role is a 422 under `field`.
 */
export function resolveRoles(all: readonly RoleRow[], refs: readonly RoleRef[], field: string): number[] {
  const ids = new Set<number>();
  for (const ref of refs) {
    const asId = typeof ref === 'number' ? ref : /^\d+$/.test(ref) ? Number(ref) : undefined;
    const name = String(ref);
    const role =
      asId !== undefined
        ? all.find((r) => r.id === asId)
        : (all.find((r) => r.name === name) ?? all.find((r) => r.name.toLowerCase() === name.toLowerCase()));
    if (!role) throw invalidField(field, FOLDER_MESSAGES.unknownRole(ref));
    ids.add(role.id);
  }
  return [...ids].sort((a, b) => a - b);
}
