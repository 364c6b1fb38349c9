import { z } from 'zod';
import { emailField, msg, passwordField, idSchema } from './common.ts';
import { isCommonPassword } from './passwords.ts';

export const LOGIN_FAILED_MESSAGE =
  'Die eingegebenen Zugangsdaten sind nicht korrekt. Bitte versuchen Sie es erneut!';
export const FORGOT_PASSWORD_SUCCESS_MESSAGE =
  'Ein Link zum Zurücksetzen deines Passworts wurde dir gesendet.';
export const PASSWORD_RESET_SUCCESS_MESSAGE = 'Ihr Passwort wurde zurückgesetzt!';
export const RESET_TOKEN_INVALID_MESSAGE =
  'Der Link zum Zurücksetzen ist ungültig oder abgelaufen. Bitte fordern Sie einen neuen an.';
/** Login throttling (DESIGN 4.18): the window is one minute, so "a minute" is never too short. */
export const LOGIN_THROTTLED_MESSAGE =
  'Zu viele fehlgeschlagene Anmeldeversuche. Bitte warten Sie eine Minute und versuchen Sie es dann erneut.';

export const loginBodySchema = z.object({
  email: emailField,
  password: passwordField(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const authUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  title: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  roles: z.array(z.string()),
});
export type AuthUser = z.infer<typeof authUserSchema>;

export const loginResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  user: authUserSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const forgotPasswordBodySchema = z.object({ email: emailField });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

/** A new password: length rules plus the refusal of very common passwords. */
export const newPasswordField = (field = 'Passwort') =>
  passwordField(field).refine((value) => !isCommonPassword(value), { error: msg.passwordCommon });

export const passwordPairSchema = z
  .object({
    password: newPasswordField('Passwort'),
    password_confirmation: passwordField('Passwortbestätigung'),
  })
  .refine((body) => body.password === body.password_confirmation, {
    error: msg.passwordMismatch,
    path: ['password_confirmation'],
  });

/** The token from the link: one message when it is missing, none about a minimum length. */
const resetTokenField = z
  .string({ error: msg.required('Token') })
  .trim()
  .min(1, { error: msg.required('Token') })
  .max(200, { error: RESET_TOKEN_INVALID_MESSAGE });

export const passwordResetBodySchema = z
  .object({
    id: idSchema,
    token: resetTokenField,
    password: newPasswordField('Passwort'),
    password_confirmation: passwordField('Passwortbestätigung'),
  })
  .refine((body) => body.password === body.password_confirmation, {
    error: msg.passwordMismatch,
    path: ['password_confirmation'],
  });
export type PasswordResetBody = z.infer<typeof passwordResetBodySchema>;
