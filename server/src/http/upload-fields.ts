import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { AppError, GERMAN } from '../errors.ts';
import { discardUpload, type UploadSource } from './upload-source.ts';

/**
 * Upload fields arrive as multipart or JSON; they are checked like a route body (422 per field,
 * `extraErrors` beside the schema's).
 */
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

/** The uploaded object belongs to the request until the service has committed it. */
export async function withUpload<T>(
  ctx: Pick<AppContext, 'storage' | 'logger'>,
  upload: UploadSource,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await discardUpload(ctx, upload);
    throw error;
  }
}
