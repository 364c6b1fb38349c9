import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

/** Retry only what may heal by itself: lost connections, timeouts and server errors. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2 || !isApiError(error)) return false;
  return error.kind === 'network' || error.kind === 'timeout' || error.status >= 500;
}

export function createQueryClient(options: { retry?: boolean } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: options.retry === false ? false : shouldRetry,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/**
 * The query of `GET /account`: the account feature reads it, and the second factor's changes
 * (two-factor feature) refresh it, since the account carries the factor's state.
 */
export const ACCOUNT_QUERY_KEY = ['account'] as const;

/**
 * The events' queries: the list and one event. Shared because a meeting's changes (agenda,
 * answers, Protokoll) change what the event shows, and the meetings feature refreshes them.
 */
export const eventKeys = {
  all: ['events'] as const,
  list: () => [...eventKeys.all, 'list'] as const,
  detail: (id: number) => [...eventKeys.all, 'detail', id] as const,
};
