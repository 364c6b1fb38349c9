import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  Account as AccountFields,
  UpdateAccountBody,
  UpdateAccountResponse,
} from '@gremienportal/contracts/account';
import type { OwnMembership } from '@gremienportal/contracts/committees';
import type { TwoFactorStatus } from '@gremienportal/contracts/two-factor';
import { api } from '../../lib/api-client';
import { ACCOUNT_QUERY_KEY } from '../../lib/query-client';

/**
 * GET /account: the fields and, since decision 126, the second factor's state, since decision 189
 * the own committee memberships (PUT answers without either).
 */
export type Account = AccountFields & { two_factor?: TwoFactorStatus; memberships?: OwnMembership[] };

export const accountKeys = {
  all: ACCOUNT_QUERY_KEY,
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
