import { z } from 'zod';
import { idSchema } from './fields.ts';
import { MAX_TEXT_LENGTH, msg, TITLE_OPTIONS } from './rules.ts';

/** Zod's own messages (wrong type, unknown key, …) in German, for server and web alike. */
z.config(z.locales.de());

export * from './rules.ts';
export { emailField, idSchema, passwordField } from './fields.ts';

/**
 * Invisible format characters no title or name has a use for: zero-width (U+200B–U+200D, U+2060,
 * U+FEFF) and bidi controls (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, U+061C). They make two
 * names that look alike differ, or show a name reversed (`\u202Egnp.exe`).
 */
export const INVISIBLE_CHARACTERS = /[\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF\u061C]/u;

const LOOK_ALIKE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

/**
 * Whether one word mixes Latin, Cyrillic and Greek letters, as a look-alike of a real name does
 * (`Аufsichtsrat` with a Cyrillic А). Words are runs of letters and marks, so `Protokoll Ωmega`
 * or `5 μm` (separate words) pass.
 */
export function mixesScripts(value: string): boolean {
  return value
    .split(/[^\p{L}\p{M}]+/u)
    .some((word) => LOOK_ALIKE_SCRIPTS.filter((script) => script.test(word)).length > 1);
}

/**
 * A required text field: trimmed and NFC-normalised (one spelling for `ü`, so equal names compare
 * equal), German messages for empty, too short, too long and for invisible control characters.
 */
export const requiredText = (field: string, min = 1, max = MAX_TEXT_LENGTH) =>
  z
    .string({ error: msg.required(field) })
    .trim()
    .normalize('NFC')
    .min(1, { error: msg.required(field), abort: true })
    .min(min, { error: msg.min(field, min) })
    .max(max, { error: msg.max(field, max) })
    .refine((value) => !INVISIBLE_CHARACTERS.test(value), { error: msg.invisibleCharacters(field) });

/** A title that lists show next to others (folders, documents, events): no mixed-script words. */
export const titleText = (field: string, min = 1, max = MAX_TEXT_LENGTH) =>
  requiredText(field, min, max).refine((value) => !mixesScripts(value), { error: msg.mixedScripts(field) });

export const titleField = z.enum(TITLE_OPTIONS, { error: 'Bitte Herr oder Frau wählen.' });

export const idParamsSchema = z.object({ id: idSchema });
export type IdParams = z.infer<typeof idParamsSchema>;

/** A role given by id (number or numeric string) or by name; the server resolves it. */
export const roleRefSchema = z.union([z.number().int().positive(), z.string().trim().min(1).max(50)]);
export type RoleRef = z.infer<typeof roleRefSchema>;

export const roleSchema = z.object({ id: z.number().int(), name: z.string() });
export type Role = z.infer<typeof roleSchema>;

/** A person as the account, the user list and "visible to" show them; each adds its own fields. */
export const personSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  /** Role names. */
  roles: z.array(z.string()),
});

export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  /** Machine-readable reason where a client must act on it (`two_factor_setup_required`). */
  code: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

export const messageSchema = z.object({ message: z.string() });

const TRUE_WORDS = ['true', '1', 'on', 'ja'];
const FALSE_WORDS = ['false', '0', 'off', 'nein', ''];

/** A yes/no field as JSON (`true`) or a multipart form (`"true"`, `"1"`, `"on"`; `""` is no). */
export const formBoolean = (message: string) =>
  z.preprocess(
    (value) => {
      if (typeof value !== 'string') return value;
      const word = value.trim().toLowerCase();
      if (TRUE_WORDS.includes(word)) return true;
      if (FALSE_WORDS.includes(word)) return false;
      return value;
    },
    z.boolean({ error: message }),
  );
