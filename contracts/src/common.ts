import { z } from 'zod';

/** Zod's own messages (wrong type, unknown key, …) in German, for server and web alike. */
z.config(z.locales.de());

export const ROLE_NAMES = ['Admin', 'Super-Admin', 'Aufsichtsrat', 'Vertreter'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];
export const ADMIN_ROLES: readonly RoleName[] = ['Admin', 'Super-Admin'];
export const isAdmin = (roles: readonly string[]): boolean =>
  roles.some((role) => (ADMIN_ROLES as readonly string[]).includes(role));

/** Root folder and the folders the first migration creates; never renamed, moved or deleted. */
export const ROOT_FOLDER_ID = 1;
export const PROTECTED_FOLDER_IDS: readonly number[] = [1, 2, 3, 4];

export const TITLE_OPTIONS = ['Herr', 'Frau'] as const;

export const MIN_NAME_LENGTH = 3;
export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_TEXT_LENGTH = 255;
export const MAX_DESCRIPTION_LENGTH = 10_000;

export const msg = {
  required: (field: string) => `${field} ist erforderlich.`,
  min: (field: string, n: number) => `${field} muss mindestens ${n} Zeichen lang sein.`,
  max: (field: string, n: number) => `${field} darf höchstens ${n} Zeichen lang sein.`,
  email: 'Bitte eine gültige E-Mail-Adresse eingeben.',
  passwordMismatch: 'Die Passwörter stimmen nicht überein.',
  passwordCommon: 'Dieses Passwort ist zu verbreitet. Bitte ein anderes wählen.',
  passwordIsEmail: 'Das Passwort darf nicht die eigene E-Mail-Adresse sein.',
  invalidId: 'Ungültige ID.',
} as const;

/** A required text field: trimmed, German messages for empty, too short and too long. */
export const requiredText = (field: string, min = 1, max = MAX_TEXT_LENGTH) =>
  z
    .string({ error: msg.required(field) })
    .trim()
    .min(1, { error: msg.required(field), abort: true })
    .min(min, { error: msg.min(field, min) })
    .max(max, { error: msg.max(field, max) });

export const emailField = z
  .string({ error: msg.required('E-Mail-Adresse') })
  .trim()
  .min(1, { error: msg.required('E-Mail-Adresse'), abort: true })
  .max(MAX_TEXT_LENGTH, { error: msg.max('E-Mail-Adresse', MAX_TEXT_LENGTH) })
  .pipe(z.email({ error: msg.email }))
  .transform((value) => value.toLowerCase());

export const passwordField = (field = 'Passwort') =>
  z
    .string({ error: msg.required(field) })
    .min(1, { error: msg.required(field), abort: true })
    .min(MIN_PASSWORD_LENGTH, { error: msg.min(field, MIN_PASSWORD_LENGTH) })
    .max(MAX_PASSWORD_LENGTH, { error: msg.max(field, MAX_PASSWORD_LENGTH) });

export const titleField = z.enum(TITLE_OPTIONS, { error: 'Bitte Herr oder Frau wählen.' });

export const idSchema = z.coerce
  .number({ error: msg.invalidId })
  .int({ error: msg.invalidId })
  .positive({ error: msg.invalidId })
  .max(2_147_483_647, { error: msg.invalidId });
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
