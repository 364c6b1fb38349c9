import type { ForgotPasswordBody, PasswordResetBody } from '@gremienportal/contracts/auth';
import { api } from '../../lib/api-client';

export const requestPasswordReset = (body: ForgotPasswordBody) =>
  api.post<{ message: string }>('/auth/forgot-password', body);

/** Sets a new password with the one-time link's id and token (reset and invitation alike). */
export const resetPassword = (body: PasswordResetBody) =>
  api.post<{ message: string }>('/auth/password-reset', body);
