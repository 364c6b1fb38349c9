import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Account as AccountFields,
  UpdateAccountBody,
  UpdateAccountResponse,
} from '@gremienportal/contracts/account';
import type {
  DisableTwoFactorBody,
  PasskeyRegistrationResponse,
  RecoveryCodesResponse,
  TotpConfirmBody,
  TotpSetupResponse,
  TwoFactorStatus,
} from '@gremienportal/contracts/two-factor';
import { api, request } from '../../lib/api-client';
import { confirmWithPasskey, createPasskey, prompt } from '../../lib/passkeys';

/** GET /account: the fields and, since decision 126, the second factor's state (PUT answers without it). */
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
        const {
          password: _password,
          password_confirmation: _confirmation,
          current_password: _current,
          ...fields
        } = body;
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

/** The first code of the app, with the password asked again (decision 147). */
export const useConfirmTotp = () =>
  useTwoFactorMutation((body: TotpConfirmBody) =>
    api.post<RecoveryCodesResponse>('/account/two-factor/totp/confirm', body),
  );

export const useRenewRecoveryCodes = () =>
  useTwoFactorMutation(() => api.post<RecoveryCodesResponse>('/account/two-factor/recovery-codes'));

/** Off with the password and a code, a recovery code, or (`passkey: true`) the device's passkey. */
export type DisableProof = Omit<DisableTwoFactorBody, 'webauthn'> & { passkey?: boolean };

export const useDisableTwoFactor = () =>
  useTwoFactorMutation(async ({ passkey, ...body }: DisableProof) => {
    if (passkey) {
      const options = await api.post<unknown>('/account/two-factor/webauthn/confirm-options');
      const webauthn = await prompt(() => confirmWithPasskey(options));
      return request<void>('DELETE', '/account/two-factor', { ...body, webauthn });
    }
    return request<void>('DELETE', '/account/two-factor', body);
  });

/**
 * "Passkey hinzufügen": the password, then the server's options, the browser's prompt, the server's
 * check. The server checks the password before the prompt opens (decision 147).
 */
export const useAddPasskey = () =>
  useTwoFactorMutation(async ({ name, currentPassword }: { name: string; currentPassword: string }) => {
    const options = await api.post<unknown>('/account/two-factor/webauthn/registration-options', {
      current_password: currentPassword,
    });
    const response = await prompt(() => createPasskey(options));
    return api.post<PasskeyRegistrationResponse>('/account/two-factor/webauthn/registration', {
      name,
      response,
    });
  });

export const useRemovePasskey = () =>
  useTwoFactorMutation((id: number) => request<void>('DELETE', `/account/two-factor/webauthn/${id}`));

export const useForgetTrustedDevice = () =>
  useTwoFactorMutation((id: number) => request<void>('DELETE', `/account/two-factor/trusted-devices/${id}`));
