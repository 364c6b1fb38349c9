import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { FolderRefListResponse } from '@gremienportal/contracts/folders';
import type {
  TrashEmptyResponse,
  TrashItem,
  TrashKind,
  TrashListResponse,
  TrashRestoreResponse,
} from '@gremienportal/contracts/trash';
import { api } from '../../lib/api-client';
import { refreshDocumentArea } from '../../lib/document-area';
import { addDayRange, addPage, type TablePage } from '../../lib/paging';

export type { TrashItem, TrashKind };

/** The list's filters as the page holds them (all optional). */
export interface TrashFilters {
  type?: TrashKind;
  /** Who deleted it (user id). */
  deletedBy?: number;
  /** YYYY-MM-DD, a Berlin calendar day. */
  from?: string;
  to?: string;
}

export type TrashPage = TablePage;

export const trashKeys = {
  all: ['trash'] as const,
  list: (filters: TrashFilters, page: TrashPage) => [...trashKeys.all, 'list', filters, page] as const,
  targets: (type: 'file' | 'folder') => [...trashKeys.all, 'targets', type] as const,
};

/** The query string of the list; only the filters that are set. */
export function trashSearchParams(filters: TrashFilters, page?: TrashPage): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.type) params.set('type', filters.type);
  if (filters.deletedBy !== undefined) params.set('deleted_by', String(filters.deletedBy));
  addDayRange(params, filters);
  addPage(params, page);
  return params;
}

/** One page of the Papierkorb, newest deletion first (GET /api/v1/trash; admins only). */
export const trashListQueryOptions = (filters: TrashFilters, page: TrashPage) =>
  queryOptions({
    queryKey: trashKeys.list(filters, page),
    queryFn: ({ signal }) => {
      const query = trashSearchParams(filters, page).toString();
      return api.get<TrashListResponse>(`/trash?${query}`, { signal });
    },
    // Paging and filtering keep the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/**
 * Where an entry whose folder is gone may go: a document into any folder but the root (as an
 * upload), a folder anywhere (as a move; itself is in the Papierkorb, so not among them).
 */
export const restoreTargetsQueryOptions = (type: 'file' | 'folder') =>
  queryOptions({
    queryKey: trashKeys.targets(type),
    queryFn: ({ signal }) =>
      api
        .get<FolderRefListResponse>(type === 'file' ? '/file-breadcrumbs' : '/folders', { signal })
        .then((body) => body.data.map(({ id, breadcrumb }) => ({ id, breadcrumb }))),
    staleTime: 0,
  });

/** The Papierkorb and everything a restore brings back: folders, files and events. */
async function refreshAfterChange(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: trashKeys.all }),
    refreshDocumentArea(queryClient),
    // The events feature's queries start with its name (features do not import each other).
    queryClient.invalidateQueries({ queryKey: ['events'] }),
  ]);
}

export interface RestoreVariables {
  item: Pick<TrashItem, 'type' | 'object_id'>;
  /** Required when the entry's former folder is gone (`needs_target`). */
  folderId?: number;
}

export function useRestoreTrashItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ item, folderId }: RestoreVariables) =>
      api
        .post<TrashRestoreResponse>(
          `/trash/${item.type}/${item.object_id}/restore`,
          folderId === undefined ? {} : { folder_id: folderId },
        )
        .then((res) => res.data),
    onSuccess: () => refreshAfterChange(queryClient),
  });
}

/** Super-Admins: removes one entry for good. */
export function usePurgeTrashItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: Pick<TrashItem, 'type' | 'object_id'>) =>
      api.delete(`/trash/${item.type}/${item.object_id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trashKeys.all }),
  });
}

/** Super-Admins: removes every entry for good; answers how many. */
export function useEmptyTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<TrashEmptyResponse>('/trash').then((res) => res.data.removed),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: trashKeys.all }),
  });
}

/** A 409 means someone else restored or purged the entry first: the list is out of date. */
export const refreshTrash = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: trashKeys.all });
