import { ROOT_FOLDER_ID } from '@gremienportal/contracts/rules';
import type { SearchHit, SearchType } from '@gremienportal/contracts/search';
import { parseId } from '../../lib/route-params';

/**
 * The search's rules as plain functions (decision 129): what a query must be before it is sent, where a
 * hit leads, and which folder a search started in.
 */

/*
 * Values of contracts/search, written out: importing that module at run time would add zod's
 * tuple schema to the zod code that /files loads first (bundle budget; decision 129).
 * search.rules.test.ts proves they equal the contract's.
 */
export const QUERY_MIN_LENGTH = 2;
export const QUERY_MAX_LENGTH = 200;
export const SEARCH_TYPE_NAMES = [
  'file',
  'folder',
  'event',
  'resolution',
] as const satisfies readonly SearchType[];
export const SEARCH_TEXTS = {
  tooShort: `Bitte mindestens ${QUERY_MIN_LENGTH} Zeichen eingeben.`,
  tooLong: `Der Suchbegriff darf höchstens ${QUERY_MAX_LENGTH} Zeichen lang sein.`,
  rangeReversed: 'Das Ende des Zeitraums darf nicht vor dem Anfang liegen.',
} as const;

/** The query as the server reads it: one space between words, none around them. */
export const normalizeQuery = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();

/** Whether the server takes the query; shorter ones it answers with 422, so they are not sent. */
export const isSendableQuery = (text: string) => {
  const length = normalizeQuery(text).length;
  return length >= QUERY_MIN_LENGTH && length <= QUERY_MAX_LENGTH;
};

export const KIND_NAMES: Record<SearchType, { one: string; other: string }> = {
  file: { one: 'Datei', other: 'Dateien' },
  folder: { one: 'Ordner', other: 'Ordner' },
  event: { one: 'Event', other: 'Events' },
  resolution: { one: 'Beschluss', other: 'Beschlüsse' },
};

/**
 * Where a hit opens: a document its page, a folder the explorer there, an event its page, a
 * resolution the Beschlussbuch with it open.
 */
export function hitHref(hit: Pick<SearchHit, 'type' | 'id'>): string {
  if (hit.type === 'file') return `/files/show/${hit.id}`;
  if (hit.type === 'folder') return hit.id === ROOT_FOLDER_ID ? '/files' : `/files?folder=${hit.id}`;
  if (hit.type === 'resolution') return `/beschluesse/${hit.id}`;
  return `/events/show/${hit.id}`;
}

/**
 * The folder a search starts in: the explorer's open folder (`/files?folder=12`) or a folder page
 * (`/folders/show/12`); none at the root and anywhere else.
 */
export function folderOfLocation(pathname: string, search: string): number | undefined {
  const id =
    pathname === '/' || pathname === '/files'
      ? parseId(new URLSearchParams(search).get('folder') ?? '')
      : parseId(/^\/folders\/show\/([^/]+)\/?$/.exec(pathname)?.[1]);
  return id === null || id === ROOT_FOLDER_ID ? undefined : id;
}

/** The results page of a query, kept to the folder it started in. */
export function searchPageHref(query: string, folderId?: number): string {
  const params = new URLSearchParams({ q: normalizeQuery(query) });
  if (folderId !== undefined) params.set('folder_id', String(folderId));
  return `/search?${params.toString()}`;
}
