import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  AccessObjectType,
  AuditListResponse,
  MyLoginsResponse,
  VisibleToResponse,
  VisibleToType,
} from '@gremienportal/contracts/audit';
import { api } from '../../lib/api-client';
import { saveBlob } from '../../lib/saved-files';
import { addDayRange, addPage, type TablePage } from '../../lib/paging';

/** The list's and the export's filters as the page holds them (all optional). */
export interface AuditFilters {
  q?: string;
  actions?: readonly string[];
  objectType?: string;
  objectId?: number;
  /** YYYY-MM-DD, a Berlin calendar day. */
  from?: string;
  to?: string;
}

export type AuditPage = TablePage;

export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters, page: AuditPage) => [...auditKeys.all, 'list', filters, page] as const,
  accesses: (type: AccessObjectType, id: number, page: AuditPage) =>
    [...auditKeys.all, 'accesses', type, id, page] as const,
  visibleTo: (type: VisibleToType, id: number) => [...auditKeys.all, 'visible-to', type, id] as const,
  myLogins: () => [...auditKeys.all, 'my-logins'] as const,
};

/** The query string of the list and the export; several actions as repeated `action`. */
export function auditSearchParams(filters: AuditFilters, page?: AuditPage): URLSearchParams {
  const params = new URLSearchParams();
  const text = filters.q?.trim();
  if (text) params.set('q', text);
  for (const action of filters.actions ?? []) params.append('action', action);
  if (filters.objectType) params.set('object_type', filters.objectType);
  if (filters.objectId !== undefined) params.set('object_id', String(filters.objectId));
  addDayRange(params, filters);
  addPage(params, page);
  return params;
}

const withQuery = (path: string, params: URLSearchParams) => {
  const query = params.toString();
  return query ? `${path}?${query}` : path;
};

/** One page of the log, newest first (GET /api/v1/audit; admins only). */
export const auditListQueryOptions = (filters: AuditFilters, page: AuditPage) =>
  queryOptions({
    queryKey: auditKeys.list(filters, page),
    queryFn: ({ signal }) =>
      api.get<AuditListResponse>(withQuery('/audit', auditSearchParams(filters, page)), { signal }),
    // Paging and filtering keep the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** Views and downloads of one file or event file ("Zugriffe"). */
export const accessesQueryOptions = (type: AccessObjectType, id: number, page: AuditPage) =>
  queryOptions({
    queryKey: auditKeys.accesses(type, id, page),
    queryFn: ({ signal }) =>
      api.get<AuditListResponse>(withQuery(`/audit/object/${type}/${id}`, auditSearchParams({}, page)), {
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** Who can see a file, folder or event now ("Sichtbar für"). */
export const visibleToQueryOptions = (type: VisibleToType, id: number) =>
  queryOptions({
    queryKey: auditKeys.visibleTo(type, id),
    queryFn: ({ signal }) =>
      api.get<VisibleToResponse>(`/audit/visible-to/${type}/${id}`, { signal }).then((body) => body.data),
    staleTime: 0,
  });

/** The signed-in user's own last sign-ins ("Letzte Anmeldungen"). */
export const myLoginsQueryOptions = () =>
  queryOptions({
    queryKey: auditKeys.myLogins(),
    queryFn: ({ signal }) =>
      api.get<MyLoginsResponse>('/audit/my-logins', { signal }).then((body) => body.data),
    staleTime: 0,
  });

/**
 * Saves the CSV export of everything the filters match. Fetched with the bearer header and saved
 * as a blob: the token never appears in a URL (product.md P6.7).
 */
export async function exportAuditCsv(filters: AuditFilters): Promise<void> {
  const file = await api.download(withQuery('/audit.csv', auditSearchParams(filters)));
  saveBlob(file.blob, file.filename);
}
