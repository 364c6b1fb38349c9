import type { z } from 'zod';
import { AppError, GERMAN } from '../../errors.ts';

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
