import * as z from 'zod/mini';
import { emailField, idSchema, passwordField } from './fields.ts';
import { isCommonPassword } from './passwords.ts';
import { msg, RESET_TOKEN_INVALID_MESSAGE } from './rules.ts';

/**
 * The sign-in contracts in `zod/mini`: the login, forgot-password and reset pages validate with
 * these objects and so load no classic zod (decision 024). auth.ts wraps the very same fields in
 * classic objects for the server, so both say the same; the messages are in rules.ts.
 */

/** A new password: length rules plus the refusal of very common passwords. */
export const newPasswordField = (field = 'Passwort') =>
  passwordField(field).check(z.refine((value) => !isCommonPassword(value), { error: msg.passwordCommon }));

/** For objects with a password and its confirmation; the message sits under the confirmation. */
export const passwordsMatch = () =>
  z.refine<{ password: string; password_confirmation: string }>(
    (body) => body.password === body.password_confirmation,
    { error: msg.passwordMismatch, path: ['password_confirmation'] },
  );

/** The token from the link: one message when it is missing, none about a minimum length. */
const resetTokenField = z
  .string({ error: msg.required('Token') })
  .check(
    z.trim(),
    z.minLength(1, { error: msg.required('Token') }),
    z.maxLength(200, { error: RESET_TOKEN_INVALID_MESSAGE }),
  );

export const loginFields = { email: emailField, password: passwordField() };
export const forgotPasswordFields = { email: emailField };
export const passwordResetFields = {
  id: idSchema,
  token: resetTokenField,
  password: newPasswordField('Passwort'),
  password_confirmation: passwordField('Passwortbestätigung'),
};

export const loginFormSchema = z.object(loginFields);
export const forgotPasswordFormSchema = z.object(forgotPasswordFields);
export const passwordResetFormSchema = z.object(passwordResetFields).check(passwordsMatch());
