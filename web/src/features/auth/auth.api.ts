import type { ForgotPasswordBody, PasswordResetBody } from '@gremienportal/contracts/auth';
import type { PasswordResetResult } from '@gremienportal/contracts/two-factor';
import { api } from '../../lib/api-client';

export const requestPasswordReset = (body: ForgotPasswordBody) =>
  api.post<{ message: string }>('/auth/forgot-password', body);

/**
 * Sets a new password with the one-time link's id and token (reset and invitation alike); after an
 * invitation the answer signs the new member in (`sign_in`).
 */
export const resetPassword = (body: PasswordResetBody) =>
  api.post<PasswordResetResult>('/auth/password-reset', body);
