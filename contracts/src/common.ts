import { z } from 'zod';
import { idSchema } from './fields.ts';
import { MAX_TEXT_LENGTH, msg, TITLE_OPTIONS } from './rules.ts';

/** Zod's own messages (wrong type, unknown key, …) in German, for server and web alike. */
z.config(z.locales.de());

export * from './rules.ts';
export { emailField, idSchema, passwordField } from './fields.ts';

/** A required text field: trimmed, German messages for empty, too short and too long. */
export const requiredText = (field: string, min = 1, max = MAX_TEXT_LENGTH) =>
  z
    .string({ error: msg.required(field) })
    .trim()
    .min(1, { error: msg.required(field), abort: true })
    .min(min, { error: msg.min(field, min) })
    .max(max, { error: msg.max(field, max) });

export const titleField = z.enum(TITLE_OPTIONS, { error: 'Bitte Herr oder Frau wählen.' });

export const idParamsSchema = z.object({ id: idSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

/** A role given by id (number or numeric string) or by name; the server resolves it. */
export const roleRefSchema = z.union([z.number().int().positive(), z.string().trim().min(1).max(50)]);
export type RoleRef = z.infer<typeof roleRefSchema>;

export const roleSchema = z.object({ id: z.number().int(), name: z.string() });
export type Role = z.infer<typeof roleSchema>;

export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

export const messageSchema = z.object({ message: z.string() });
