import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Account as AccountFields,
  UpdateAccountBody,
  UpdateAccountResponse,
} from '@gremienportal/contracts/account';
import type {
  DisableTwoFactorBody,
  RecoveryCodesResponse,
  TotpSetupResponse,
  TwoFactorStatus,
} from '@gremienportal/contracts/two-factor';
import { api, request } from '../../lib/api-client';

/** GET /account: the fields and, since issue 18, the second factor's state (PUT answers without it). */
export type Account = AccountFields & { two_factor?: TwoFactorStatus };
export type { TotpSetupResponse, TwoFactorStatus };

export const accountKeys = {
  all: ['account'] as const,
};

export const accountQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.all,
    queryFn: ({ signal }) => api.get<{ data: Account }>('/account', { signal }).then((body) => body.data),
  });

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAccountBody) => api.put<UpdateAccountResponse>('/account', body),
    onSuccess: (response, body) => {
      queryClient.setQueryData<Account>(accountKeys.all, (current) => {
        if (!current) return current;
        const { password: _password, password_confirmation: _confirmation, ...fields } = body;
        return { ...current, ...fields, ...response?.user };
      });
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    },
  });
}

/** Setting up, renewing and turning off the second factor; each refreshes the account's state. */
function useTwoFactorMutation<TBody, TResult>(mutationFn: (body: TBody) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export const useStartTotpSetup = () =>
  useMutation({ mutationFn: () => api.post<TotpSetupResponse>('/account/two-factor/totp') });

export const useConfirmTotp = () =>
  useTwoFactorMutation((code: string) =>
    api.post<RecoveryCodesResponse>('/account/two-factor/totp/confirm', { code }),
  );

export const useRenewRecoveryCodes = () =>
  useTwoFactorMutation(() => api.post<RecoveryCodesResponse>('/account/two-factor/recovery-codes'));

export const useDisableTwoFactor = () =>
  useTwoFactorMutation((body: DisableTwoFactorBody) => request<void>('DELETE', '/account/two-factor', body));
