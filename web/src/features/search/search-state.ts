import { parseId } from '../../lib/route-params';
import type { SearchFilters, SearchPage, SearchSort, SearchType } from './search.api';
import {
  normalizeQuery,
  QUERY_MAX_LENGTH,
  QUERY_MIN_LENGTH,
  SEARCH_TEXTS,
  SEARCH_TYPE_NAMES,
} from './search.rules';

/**
 * The results page keeps everything in its address (`/search?q=…&type=file&page=2`), so reload,
 * back and a shared link show the same search. Empty strings mean "not set".
 */
export interface SearchState {
  q: string;
  type: SearchType | '';
  format: string;
  from: string;
  to: string;
  /** The folder the search was started in (`folder_id`). */
  folderId: number | undefined;
  /** "Nur in diesem Ordner" switched off (`scope=all`): the folder stays known for switching back. */
  everywhere: boolean;
  sort: SearchSort;
  page: number;
  perPage: number;
}

export const SEARCH_PAGE_SIZES = [10, 20, 50];
export const SEARCH_PAGE_SIZE = 20;

const positiveInt = (value: string | null) => {
  const number = Number(value);
  return value && Number.isInteger(number) && number > 0 && number <= 1_000_000 ? number : undefined;
};

export const isSearchType = (value: string | null): value is SearchType =>
  (SEARCH_TYPE_NAMES as readonly string[]).includes(value ?? '');

/** The state from the address; anything unreadable falls back to its default. */
export function readSearchState(params: URLSearchParams): SearchState {
  const type = params.get('type');
  const perPage = positiveInt(params.get('per_page'));
  const format = (params.get('format') ?? '').trim().toLowerCase();
  return {
    q: params.get('q') ?? '',
    type: isSearchType(type) ? type : '',
    format: /^[a-z0-9]{1,10}$/.test(format) ? format : '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    folderId: parseId(params.get('folder_id') ?? '') ?? undefined,
    everywhere: params.get('scope') === 'all',
    sort: params.get('sort') === 'date' ? 'date' : 'relevance',
    page: positiveInt(params.get('page')) ?? 1,
    perPage: perPage && SEARCH_PAGE_SIZES.includes(perPage) ? perPage : SEARCH_PAGE_SIZE,
  };
}

/** The address of a state: only what differs from the defaults. */
export function writeSearchState(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.type) params.set('type', state.type);
  if (state.format) params.set('format', state.format);
  if (state.from) params.set('from', state.from);
  if (state.to) params.set('to', state.to);
  if (state.folderId !== undefined) params.set('folder_id', String(state.folderId));
  if (state.folderId !== undefined && state.everywhere) params.set('scope', 'all');
  if (state.sort !== 'relevance') params.set('sort', state.sort);
  if (state.page !== 1) params.set('page', String(state.page));
  if (state.perPage !== SEARCH_PAGE_SIZE) params.set('per_page', String(state.perPage));
  return params;
}

/** What the request sends: a file type only where documents are searched. */
export function filtersOf(state: SearchState): SearchFilters {
  const format = state.type === '' || state.type === 'file' ? state.format : '';
  return {
    q: normalizeQuery(state.q),
    ...(state.type ? { type: state.type } : {}),
    ...(format ? { format } : {}),
    ...(state.from ? { from: state.from } : {}),
    ...(state.to ? { to: state.to } : {}),
    ...(state.folderId !== undefined && !state.everywhere ? { folderId: state.folderId } : {}),
    sort: state.sort,
  };
}

export const pageOf = (state: SearchState): SearchPage => ({ page: state.page, perPage: state.perPage });

/** Whether a filter beyond the query is set ("Filter zurücksetzen"). */
export const hasSearchFilters = (state: SearchState) =>
  state.type !== '' || state.format !== '' || state.from !== '' || state.to !== '';

/**
 * What keeps a search from being sent, by field (`q`, `to`), or null: a query the server would
 * refuse with 422 is not asked (the server checks everything again and says why in German).
 */
export function searchErrors(state: SearchState): Partial<Record<'q' | 'to', string>> | null {
  const length = normalizeQuery(state.q).length;
  if (length < QUERY_MIN_LENGTH) return { q: SEARCH_TEXTS.tooShort };
  if (length > QUERY_MAX_LENGTH) return { q: SEARCH_TEXTS.tooLong };
  const days = [state.from, state.to].every((day) => /^\d{4}-\d{2}-\d{2}$/.test(day));
  if (days && state.to < state.from) return { to: SEARCH_TEXTS.rangeReversed };
  return null;
}
