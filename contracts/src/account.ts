import { z } from 'zod';
import { emailField, msg, passwordField, requiredText, titleField, MIN_NAME_LENGTH } from './common.ts';
import { newPasswordField } from './auth.ts';

export const ACCOUNT_UPDATED_MESSAGE = 'Account erfolgreich aktualisiert';
export const ACCOUNT_FIELDS_FORBIDDEN_MESSAGE =
  'Titel, Name und E-Mail-Adresse können nur von der Geschäftsstelle geändert werden.';

/** Only the changed fields are sent; each one present is validated. */
export const updateAccountBodySchema = z
  .object({
    title: titleField.optional(),
    firstname: requiredText('Vorname', MIN_NAME_LENGTH).optional(),
    lastname: requiredText('Nachname', MIN_NAME_LENGTH).optional(),
    email: emailField.optional(),
    password: newPasswordField('Neues Passwort').optional(),
    password_confirmation: passwordField('Passwortbestätigung').optional(),
  })
  .refine((body) => body.password === body.password_confirmation, {
    error: msg.passwordMismatch,
    path: ['password_confirmation'],
  });
export type UpdateAccountBody = z.infer<typeof updateAccountBodySchema>;
