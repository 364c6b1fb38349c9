import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { SearchHit, SearchResponse, SearchType, SuggestResponse } from '@gremienportal/contracts/search';
import { api } from '../../lib/api-client';
import { normalizeQuery } from './search.rules';
import { addDayRange, addPage, type TablePage } from '../../lib/paging';

export type { SearchHit, SearchType };
export type SuggestHit = SuggestResponse['data'][number];
export type SearchSort = 'relevance' | 'date';

/** What the results page asks for; unset filters are left out of the request. */
export interface SearchFilters {
  q: string;
  type?: SearchType;
  /** File type without the dot ("pdf"). */
  format?: string;
  /** YYYY-MM-DD, a Berlin calendar day. */
  from?: string;
  to?: string;
  /** Only in this folder and below it. */
  folderId?: number;
  sort: SearchSort;
}

export type SearchPage = TablePage;

export const searchKeys = {
  all: ['search'] as const,
  results: (filters: SearchFilters, page: SearchPage) =>
    [...searchKeys.all, 'results', filters, page] as const,
  suggest: (q: string) => [...searchKeys.all, 'suggest', q] as const,
  folder: (id: number) => [...searchKeys.all, 'folder', id] as const,
};

/** The query string of GET /search; only the filters that are set. */
export function searchSearchParams(filters: SearchFilters, page?: SearchPage): URLSearchParams {
  const params = new URLSearchParams({ q: normalizeQuery(filters.q) });
  if (filters.type) params.set('type', filters.type);
  if (filters.format) params.set('format', filters.format);
  addDayRange(params, filters);
  if (filters.folderId !== undefined) params.set('folder_id', String(filters.folderId));
  params.set('sort', filters.sort);
  addPage(params, page);
  return params;
}

/** One page of hits (GET /api/v1/search): only what the member may see. */
export const searchQueryOptions = (filters: SearchFilters, page: SearchPage) =>
  queryOptions({
    queryKey: searchKeys.results(filters, page),
    queryFn: ({ signal }) =>
      api.get<SearchResponse>(`/search?${searchSearchParams(filters, page).toString()}`, { signal }),
    // Paging and filtering keep the old hits on screen until the new ones arrive.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

/** Up to eight title hits while typing in the header (GET /api/v1/search/suggest). */
export const suggestQueryOptions = (q: string) =>
  queryOptions({
    queryKey: searchKeys.suggest(normalizeQuery(q)),
    queryFn: ({ signal }) =>
      api
        .get<SuggestResponse>(`/search/suggest?${new URLSearchParams({ q: normalizeQuery(q) }).toString()}`, {
          signal,
        })
        .then((body) => body.data),
  });

/** How many documents whose text holds the query the header's list shows below the titles. */
export const TEXT_HITS_IN_LIST = 3;

/**
 * The best documents whose text holds the query, for the header's list (GET /api/v1/search, only
 * documents): a word that occurs only inside a PDF is found while typing too.
 */
export const textHitsQueryOptions = (q: string) =>
  queryOptions({
    queryKey: [...searchKeys.suggest(normalizeQuery(q)), 'text'] as const,
    queryFn: ({ signal }) =>
      api
        .get<SearchResponse>(
          `/search?${searchSearchParams({ q, type: 'file', sort: 'relevance' }, { page: 1, perPage: 8 }).toString()}`,
          { signal },
        )
        .then((body) => body.data.filter((hit) => hit.snippet !== null)),
  });

/**
 * The path of the folder a search is limited to, for "Nur in /Aufsichtsrat/2026". Its own query
 * (features do not share queries); a folder that cannot be read just goes unnamed.
 */
export const searchFolderQueryOptions = (id: number) =>
  queryOptions({
    queryKey: searchKeys.folder(id),
    queryFn: ({ signal }) =>
      api
        .get<{ data: { breadcrumb: string } }>(`/folders/${id}`, { signal })
        .then((body) => body.data.breadcrumb),
    retry: false,
  });
