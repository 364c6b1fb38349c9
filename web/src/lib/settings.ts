import { queryOptions } from '@tanstack/react-query';
import type { PortalSettings } from '@gremienportal/contracts/account';
import { api } from './api-client';

export type { PortalSettings };

/** Portal settings from the configuration (DESIGN § 4.19): footer links and contact addresses. */
export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: ['settings'],
    queryFn: ({ signal }) =>
      api.get<{ data: PortalSettings }>('/settings', { signal }).then((body) => body.data),
    staleTime: Infinity,
    retry: false,
  });

/** Only http(s) addresses become links; anything else from the configuration is ignored. */
export function safeExternalUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
