import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Account, UpdateAccountBody, UpdateAccountResponse } from '@gremienportal/contracts/account';
import { api } from '../../lib/api-client';

export type { Account };

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
