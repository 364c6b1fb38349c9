import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PortalSettings } from '@gremienportal/contracts/account';
import { api } from './api-client';

export type { PortalSettings };

/** Portal settings from the configuration (product.md P2.4): footer links, contact addresses, upload limit. */
export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: ['settings'],
    queryFn: ({ signal }) =>
      api.get<{ data: PortalSettings }>('/settings', { signal }).then((body) => body.data),
    staleTime: Infinity,
    retry: false,
  });

/** product.md P13.1: the server's default `MAX_UPLOAD_MB`, assumed until the settings have loaded. */
export const DEFAULT_MAX_UPLOAD_MB = 100;

/**
 * The largest upload in MB as the server reports it. While the settings load (or when they
 * cannot be loaded) the default applies; the server enforces its own limit in any case.
 */
export function useMaxUploadMb(): number {
  const { data } = useQuery(settingsQueryOptions());
  return data?.max_upload_mb ?? DEFAULT_MAX_UPLOAD_MB;
}
