import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarkReadResponse, NewsResponse } from '@gremienportal/contracts/news';
import { api } from '../../lib/api-client';
import { refreshDocumentArea } from '../../lib/document-area';

export const newsKeys = {
  all: ['news'] as const,
};

/** "Neu für Sie": new documents, those waiting for the member's Kenntnisnahme, the next events. */
export const newsQueryOptions = () =>
  queryOptions({
    queryKey: newsKeys.all,
    queryFn: ({ signal }) => api.get<NewsResponse>('/news', { signal }).then((body) => body.data),
  });

/**
 * "Alle als gelesen markieren": a folder with everything below it, or (no id) everything. The
 * badges and counts of the tree, the listings and "Neu für Sie" load again.
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (folderId: number | undefined) =>
      api.post<MarkReadResponse>('/news/read', folderId === undefined ? {} : { folder_id: folderId }),
    onSuccess: () => refreshDocumentArea(queryClient),
  });
}
