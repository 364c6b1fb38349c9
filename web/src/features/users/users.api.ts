import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateUserBody,
  UpdateUserBody,
  User,
  UserDataResponse,
  UserDetail,
  UserListResponse,
  UserResponse,
} from '@gremienportal/contracts/users';
import type { ResetTwoFactorBody } from '@gremienportal/contracts/two-factor';
import { api, request } from '../../lib/api-client';

export type { User, UserDetail };

export const userKeys = {
  all: ['users'] as const,
  list: () => [...userKeys.all, 'list'] as const,
  detail: (id: number) => [...userKeys.all, 'detail', id] as const,
};

/** Every user, sorted by last name (GET /api/v1/user; admins only). */
export const usersQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => api.get<UserListResponse>('/user', { signal }).then((body) => body.data),
  });

export const userQueryOptions = (id: number) =>
  queryOptions({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => api.get<UserDataResponse>(`/user/${id}`, { signal }).then((body) => body.data),
  });

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateUserBody) => api.post<UserResponse>('/user', body).then((res) => res.user),
    onSuccess: (user) => {
      // The new user goes to the top of the table (product.md P4), before any reload.
      queryClient.setQueryData<User[]>(userKeys.list(), (current) =>
        current ? [user, ...current.filter((other) => other.id !== user.id)] : current,
      );
      // A new account has no committee memberships yet.
      queryClient.setQueryData<UserDetail>(userKeys.detail(user.id), { ...user, memberships: [] });
    },
  });
}

export function useUpdateUser(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserBody) => api.put<UserResponse>(`/user/${id}`, body).then((res) => res.user),
    onSuccess: (user) => {
      // PUT answers without the memberships (GET /user/{id} has them): the loaded ones stay.
      queryClient.setQueryData<UserDetail>(userKeys.detail(id), (current) =>
        current ? { ...current, ...user } : current,
      );
      queryClient.setQueryData<User[]>(userKeys.list(), (current) =>
        current?.map((other) => (other.id === id ? user : other)),
      );
      void queryClient.invalidateQueries({ queryKey: userKeys.list() });
    },
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/user/${id}`),
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: userKeys.detail(id) });
      // After a delete the list reloads (product.md P4).
      return queryClient.invalidateQueries({ queryKey: userKeys.list() });
    },
  });
}

export function useResendInvitation() {
  return useMutation({
    mutationFn: (id: number) => api.post<{ message: string }>(`/user/${id}/invitation`),
  });
}

/**
 * The office resets a lost second factor (decision 126); the member sets it up again. The acting admin
 * confirms with their own code or recovery code (decision 146).
 */
export function useResetTwoFactor(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (proof: Pick<ResetTwoFactorBody, 'code' | 'recovery_code'>) =>
      request<void>('DELETE', `/user/${id}/two-factor`, proof),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: userKeys.list() }),
      ]),
  });
}
