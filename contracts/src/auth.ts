import { z } from 'zod';
// common.ts sets zod's German messages; whoever loads these schemas gets them, as before.
import './common.ts';
import {
  forgotPasswordFields,
  loginFields,
  newPasswordField,
  passwordResetFields,
  passwordsMatch,
} from './auth-forms.ts';
import { passwordField } from './fields.ts';

// The sign-in fields and rules live in auth-forms.ts (zod/mini, for the web's sign-in pages), the
// messages in rules.ts; here the same fields are wrapped in zod's classic objects for the server.
export { newPasswordField } from './auth-forms.ts';
export {
  FORGOT_PASSWORD_SUCCESS_MESSAGE,
  INVITATION_ACCEPTED_MESSAGE,
  LOGIN_ACCOUNT_THROTTLED_MESSAGE,
  LOGIN_BUSY_MESSAGE,
  LOGIN_CLIENT_CONCURRENT_MESSAGE,
  LOGIN_CLIENT_THROTTLED_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  LOGIN_THROTTLED_MESSAGE,
  PASSWORD_RESET_SUCCESS_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
} from './rules.ts';

export const loginBodySchema = z.object({
  ...loginFields,
  /** From an earlier second step with "Diesem Gerät 30 Tage vertrauen" (decision 126). */
  device_token: z.string().max(100).optional(),
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

export const forgotPasswordBodySchema = z.object(forgotPasswordFields);
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;

export const passwordPairSchema = z
  .object({
    password: newPasswordField('Passwort'),
    password_confirmation: passwordField('Passwortbestätigung'),
  })
  .check(passwordsMatch());

export const passwordResetBodySchema = z.object(passwordResetFields).check(passwordsMatch());
export type PasswordResetBody = z.infer<typeof passwordResetBodySchema>;
