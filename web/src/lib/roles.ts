import { queryOptions } from '@tanstack/react-query';
import type { Role } from '@gremienportal/contracts/common';
import { api } from './api-client';

/**
 * Every role, from the server (product.md P2.1), for the forms of users, documents, folders and events:
 * one query key, so the list is fetched once however many forms offer it.
 */
export const rolesQueryOptions = () =>
  queryOptions({
    queryKey: ['roles'] as const,
    queryFn: ({ signal }) => api.get<{ data: Role[] }>('/roles', { signal }).then((body) => body.data),
    staleTime: 5 * 60_000,
  });
