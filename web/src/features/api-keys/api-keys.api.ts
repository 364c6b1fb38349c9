import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from '@gremienportal/contracts/api-keys';
import { api } from '../../lib/api-client';

export type { ApiKey, CreatedApiKey };

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};

/** Every API-Schlüssel, newest first, expired ones too (GET /api/v1/api-keys; Super-Admins only). */
export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: apiKeyKeys.list(),
    queryFn: ({ signal }) => api.get<{ data: ApiKey[] }>('/api-keys', { signal }).then((body) => body.data),
    // "zuletzt benutzt" changes with every call of another system.
    staleTime: 0,
  });

/** A new key; its token is in this answer only. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) =>
      api.post<{ message: string; data: CreatedApiKey }>('/api-keys', body).then((res) => res.data),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
    // The token stays in the page's state until the Super-Admin closes it, not in the query cache.
    gcTime: 0,
  });
}

/** Stops a key at once (DELETE /api/v1/api-keys/{id}). */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: Pick<ApiKey, 'id'>) => api.delete(`/api-keys/${key.id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
