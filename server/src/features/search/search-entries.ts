import type { SearchHit } from '@gremienportal/contracts/search';
import { canSeeFile } from '../../policies/files.policy.ts';
import { FolderTree } from '../../policies/folders.policy.ts';
import type { Viewer } from '../../policies/principal.ts';
import { fold } from '../../search/fold.ts';
import type { FileRecord, FolderRecord } from '../../db/document-records.ts';
import type { ResolutionRecord } from '../resolutions/resolution-chain.ts';
import { contentKey, type ContentKey, type ResolutionSearchRow } from './search.repository.ts';
import { keyOrder, type KeyOrder } from './term-matches.ts';
import { TitleIndex } from './title-index.ts';

/** What a hit shows, without the parts that depend on the query. */
export type HitBase = Omit<SearchHit, 'highlight' | 'snippet' | 'searchable'>;

/** Something searchable as one viewer may see it: its folded title-like text and its hit. */
export interface Entry {
  hit: HitBase;
  /** Title (events: with place and description), folded. */
  folded: string;
  /** Its indexed text, if it has one. */
  key: ContentKey | null;
  /** Documents: their folder; folders: themselves (for "nur in diesem Ordner"). */
  folderId: number | null;
}

/** Entries with their folded titles indexed together and their texts in key order (decision 143). */
export interface EntryList {
  entries: readonly Entry[];
  titles: TitleIndex;
  byKey: KeyOrder;
}

export const entryList = (entries: readonly Entry[]): EntryList => ({
  entries,
  titles: new TitleIndex(entries.map((entry) => entry.folded)),
  byKey: keyOrder(entries.map((entry) => entry.key)),
});

/** The documents and folders one kind of viewer may see, built once per tree version. */
export interface VisibleEntries {
  tree: FolderTree<FolderRecord>;
  files: EntryList;
  folders: EntryList;
}

/**
 * Every document and folder the viewer may see, folded, in title order: the visibility rule is
 * the explorer's (`canSeeFile`, the folder tree), applied once per version and kind of viewer
 * instead of per request and document.
 */
export function visibleEntries(
  files: readonly FileRecord[],
  folders: readonly FolderRecord[],
  viewer: Viewer,
): VisibleEntries {
  const tree = new FolderTree(folders, viewer);
  return {
    tree,
    files: entryList(
      files
        .filter((record) => canSeeFile(tree, record))
        .map((record) => ({
          hit: {
            type: 'file',
            id: record.id,
            title: record.title,
            breadcrumb: tree.byId.get(record.folder_id)?.breadcrumb ?? null,
            folder_id: record.folder_id,
            format: record.format,
            date: String(record.updated_at),
            place: null,
          },
          folded: fold(record.title),
          key: contentKey('file', record.id),
          folderId: record.folder_id,
        })),
    ),
    folders: entryList(
      tree
        .visibleFolders()
        .filter((record) => record.parent_id !== null)
        .map((record) => ({
          hit: {
            type: 'folder',
            id: record.id,
            title: record.title,
            breadcrumb: record.breadcrumb,
            folder_id: record.parent_id,
            format: null,
            date: String(record.updated_at),
            place: null,
          },
          folded: fold(record.title),
          key: null,
          folderId: record.id,
        })),
    ),
  };
}

/** An event as search reads it (title, place and description count as its title). */
export function eventEntry(event: {
  id: number;
  title: string;
  location: string;
  description: string;
  start_at: string | Date;
  file_storage_key: string | null;
}): Entry {
  return {
    hit: {
      type: 'event',
      id: event.id,
      title: event.title,
      breadcrumb: null,
      folder_id: null,
      format: null,
      date: String(event.start_at),
      place: event.location || null,
    },
    folded: fold(`${event.title}\n${event.location}\n${event.description}`),
    key: event.file_storage_key ? contentKey('event', event.id) : null,
    folderId: null,
  };
}

/**
 * A resolution as search reads it (decision 190): its number and title are its title, its text is
 * sought beside them (the Beschlussbuch keeps it in the record, not in the index of texts).
 */
export interface ResolutionEntry {
  entry: Entry;
  /** The resolution's text, folded. */
  text: string;
}

/** The title a resolution's hit shows: "AR 2026/07 – Kauf des Grundstücks". */
export const resolutionTitle = (number: string, title: string) => `${number} – ${title}`;

/** What search reads of a resolution's record (canonical JSON, never changed). */
export const resolutionRecordOf = (record: string) =>
  JSON.parse(record) as Pick<ResolutionRecord, 'title' | 'text' | 'committee'>;

export function resolutionEntry(row: ResolutionSearchRow): ResolutionEntry {
  const record = resolutionRecordOf(row.record);
  const title = resolutionTitle(row.number, record.title);
  return {
    entry: {
      hit: {
        type: 'resolution',
        id: row.id,
        title,
        breadcrumb: record.committee.name,
        folder_id: null,
        format: null,
        date: String(row.established_at),
        place: null,
      },
      folded: fold(title),
      key: null,
      folderId: null,
    },
    text: fold(record.text),
  };
}
