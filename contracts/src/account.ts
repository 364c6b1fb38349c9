import { z } from 'zod';
import { emailField, msg, personSchema, requiredText, titleField, MIN_NAME_LENGTH } from './common.ts';
import { newPasswordField } from './auth.ts';
import { passwordField } from './fields.ts';

export const ACCOUNT_UPDATED_MESSAGE = 'Account erfolgreich aktualisiert';
export const ACCOUNT_FIELDS_FORBIDDEN_MESSAGE =
  'Titel, Name und E-Mail-Adresse können nur von der Geschäftsstelle geändert werden.';

export const EMAIL_VISIBLE_TO_COMMITTEES_LABEL = 'Meine E-Mail-Adresse den Mitgliedern meiner Gremien zeigen';
export const EMAIL_VISIBLE_TO_COMMITTEES_HINT =
  'Eingeschaltet sehen die anderen Mitglieder Ihrer Gremien Ihre Adresse in der Mitgliederliste, sonst nur die Geschäftsstelle.';
export const MY_COMMITTEES_TITLE = 'Meine Gremien';
export const NO_COMMITTEES_MESSAGE = 'Sie gehören zurzeit keinem Gremium an.';

export const CURRENT_PASSWORD_LABEL = 'Aktuelles Passwort';
export const CURRENT_PASSWORD_WRONG_MESSAGE = 'Das aktuelle Passwort ist nicht korrekt.';

/**
 * The password asked again before a change a stolen session must not make: a new password,
 * setting up a second factor (decision 147). A wrong one counts like a failed sign-in.
 */
export const currentPasswordField = passwordField(CURRENT_PASSWORD_LABEL);

/**
 * Only the changed fields are sent; each one present is validated. A new password needs the
 * current one (decision 147).
 */
export const updateAccountBodySchema = z
  .object({
    title: titleField.optional(),
    firstname: requiredText('Vorname', MIN_NAME_LENGTH).optional(),
    lastname: requiredText('Nachname', MIN_NAME_LENGTH).optional(),
    // Mini fields (fields.ts, auth.ts) have no `.optional()`; `z.optional` checks the same.
    email: z.optional(emailField),
    password: z.optional(newPasswordField('Neues Passwort')),
    password_confirmation: z.optional(passwordField('Passwortbestätigung')),
    current_password: z.optional(currentPasswordField),
    /** Decision 189: fellow members of one's committees see the address; everyone may set it. */
    email_visible_to_committees: z
      .boolean({ error: `${EMAIL_VISIBLE_TO_COMMITTEES_LABEL}: bitte ja oder nein angeben.` })
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.password !== undefined && body.current_password === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['current_password'],
        message: msg.required(CURRENT_PASSWORD_LABEL),
      });
    }
    if (body.password !== undefined && body.password_confirmation === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['password_confirmation'],
        message: msg.required('Passwortbestätigung'),
      });
    } else if (body.password_confirmation !== undefined && body.password !== body.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: msg.passwordMismatch });
    }
  });
export type UpdateAccountBody = z.infer<typeof updateAccountBodySchema>;

/**
 * The signed-in user's own account, as GET /account and PUT /account answer it. `roles` are every
 * role the user holds, given directly or through a committee (decision 189).
 */
export const accountSchema = personSchema.extend({
  roles_string: z.string(),
  email_visible_to_committees: z.boolean(),
});
export type Account = z.infer<typeof accountSchema>;

export const updateAccountResponseSchema = z.object({ user: accountSchema });
export type UpdateAccountResponse = z.infer<typeof updateAccountResponseSchema>;

/**
 * What the pages around the account need from the server (GET /settings): the footer's imprint
 * and privacy links and the contact box's address per role.
 */
export const portalSettingsSchema = z.object({
  imprint_url: z.string(),
  privacy_url: z.string(),
  contacts: z.object({ Aufsichtsrat: z.string(), Vertreter: z.string() }),
  /** Largest upload in MB, so drop zones refuse a too large file before sending it. */
  max_upload_mb: z.number().int().positive(),
});
export type PortalSettings = z.infer<typeof portalSettingsSchema>;

/**
 * Impressum and Datenschutz, for every page including the signed-out ones (§ 5 DDG, Art. 13
 * DSGVO; decision 124). The rest of the settings stays for signed-in users.
 */
export const legalLinksSchema = portalSettingsSchema.pick({ imprint_url: true, privacy_url: true });
export type LegalLinks = z.infer<typeof legalLinksSchema>;
