import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Dialect } from '../../db/dialect.ts';
import { seesAllCommittees } from '../../policies/committees.policy.ts';
import { eventFilter, type EventRowFilter } from '../../policies/events.policy.ts';
import type { FileRowFilter } from '../../policies/files.policy.ts';
import type { Principal, Viewer } from '../../policies/principal.ts';
import type { SearchTerm } from '../../search/fold.ts';

/**
 * An item whose text is indexed, as a number (no string per item and request): documents
 * `id · 2`, events `id · 2 + 1`, the rowids of SQLite's `search_fts` (migration 0007).
 */
export type ContentKey = number;
export const contentKey = (kind: 'file' | 'event', id: number): ContentKey =>
  kind === 'file' ? id * 2 : id * 2 + 1;
const kindOf = (key: ContentKey) => (key % 2 === 0 ? ('file' as const) : ('event' as const));
const idOf = (key: ContentKey) => Math.floor(key / 2);

/** A term as an FTS5 string: in double quotes (doubled inside), matched as a substring by trigram. */
const ftsString = (folded: string) => `"${folded.replace(/"/g, '""')}"`;
/** A term for LIKE with `\` as escape character. */
const likePattern = (folded: string) => `%${folded.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * Which texts a viewer may see, as the policies' filters on the documents and events they belong
 * to; undefined for Admins, who see every text.
 */
export interface TextFilter {
  files: FileRowFilter;
  events: EventRowFilter;
}

/**
 * The items whose text contains the term and which the viewer may see, with a score (higher is
 * better). SQLite: FTS5 trigram and bm25; PostgreSQL: the trigram index on `folded`, every hit
 * scoring the same. Both find exactly the items whose folded text contains the term.
 *
 * Visibility is part of the query: a text the viewer may not see is never returned nor scored, so
 * a word that only hidden documents contain costs what a word nowhere does (decision 150).
 */
export async function contentMatches(
  db: Kysely<Database>,
  dialect: Dialect,
  term: SearchTerm,
  visible: TextFilter | undefined,
): Promise<Map<ContentKey, number>> {
  const found = new Map<ContentKey, number>();
  if (dialect === 'postgres') {
    let query = db
      .selectFrom('search_texts')
      .select(['kind', 'item_id'])
      .where(sql<boolean>`folded like ${likePattern(term.folded)} escape '\\'`);
    if (visible) {
      const itemId = sql<number>`search_texts.item_id`;
      query = query.where((eb) =>
        eb.or([
          eb.and([
            eb('search_texts.kind', '=', 'file'),
            eb.exists(
              db.selectFrom('files').select('files.id').where('files.id', '=', itemId).where(visible.files),
            ),
          ]),
          eb.and([
            eb('search_texts.kind', '=', 'event'),
            eb.exists(
              db
                .selectFrom('events')
                .select('events.id')
                .where('events.id', '=', itemId)
                .where(visible.events),
            ),
          ]),
        ]),
      );
    }
    const rows = await query.execute();
    for (const row of rows) found.set(contentKey(row.kind, row.item_id), 1);
    return found;
  }
  // The row's owner by its rowid (`contentKey`): documents even, events odd; integer division.
  const ownerId = sql<number>`search_fts.rowid / 2`;
  const visibleRow = visible
    ? sql`and ((search_fts.rowid % 2 = 0 and exists ${db
        .selectFrom('files')
        .select('files.id')
        .where('files.id', '=', ownerId)
        .where(visible.files)})
      or (search_fts.rowid % 2 = 1 and exists ${db
        .selectFrom('events')
        .select('events.id')
        .where('events.id', '=', ownerId)
        .where(visible.events)}))`
    : sql``;
  // bm25 is computed for the rows that pass the whole condition only.
  const { rows } = await sql<{ rowid: number; score: number }>`
    select rowid, bm25(search_fts) as score from search_fts
    where search_fts match ${ftsString(term.folded)} ${visibleRow}
  `.execute(db);
  for (const row of rows) found.set(Number(row.rowid), -Number(row.score));
  return found;
}

/**
 * A change counter: `search` is raised with every text the indexer stores (migration 0007),
 * `events` with every change to events and their roles (migration 0012).
 */
export async function counterValue(db: Kysely<Database>, name: 'search' | 'events'): Promise<string> {
  const row = await db
    .selectFrom('change_counters')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return String(row.value);
}

/** Both counters search keeps its matches by, in one read. */
export async function searchCounters(db: Kysely<Database>): Promise<{ search: string; events: string }> {
  const rows = await db
    .selectFrom('change_counters')
    .select(['name', 'value'])
    .where('name', 'in', ['search', 'events'])
    .execute();
  const value = (name: string) => {
    const row = rows.find((candidate) => candidate.name === name);
    if (!row) throw new Error(`Zähler ${name} fehlt`);
    return String(row.value);
  };
  return { search: value('search'), events: value('events') };
}

/** The read text of some items (the current page's), for snippets. */
export async function textsOf(db: Kysely<Database>, keys: readonly ContentKey[]) {
  const byKind = (kind: 'file' | 'event') => keys.filter((key) => kindOf(key) === kind).map(idOf);
  const texts = new Map<ContentKey, string>();
  for (const kind of ['file', 'event'] as const) {
    const ids = byKind(kind);
    if (ids.length === 0) continue;
    const rows = await db
      .selectFrom('search_texts')
      .select(['item_id', 'text', 'state'])
      .where('kind', '=', kind)
      .where('item_id', 'in', ids)
      .execute();
    // The state is checked here: in SQL it would lure the planner away from the primary key.
    for (const row of rows)
      if (row.state === 'done' && row.text) texts.set(contentKey(kind, row.item_id), row.text);
  }
  return texts;
}

/** The text state of documents: done, empty, failed, or still to read. */
export async function fileTextStates(db: Kysely<Database>, fileIds: readonly number[]) {
  if (fileIds.length === 0) return new Map<number, string>();
  const rows = await db
    .selectFrom('search_texts')
    .select(['item_id', 'state'])
    .where('kind', '=', 'file')
    .where('item_id', 'in', fileIds)
    .execute();
  return new Map(rows.map((row) => [row.item_id, row.state]));
}

/** Every event the viewer may see, with what search reads of it. */
export function visibleEvents(db: Kysely<Database>, viewer: Viewer) {
  const filter = eventFilter(viewer);
  let query = db
    .selectFrom('events')
    .select(['id', 'title', 'location', 'description', 'start_at', 'updated_at', 'file_storage_key']);
  if (filter) query = query.where(filter);
  return query.execute();
}

/**
 * The ids of the resolutions the principal may see, as the Beschlussbuch lists them
 * (resolutions.service `list()`): Admins every one, anyone else those of the committees they have
 * an applied, active membership in now. One query, through the memberships' user index and the
 * resolutions' chain index (`committee_id, id`); read per request, so a membership that begins or
 * ends counts at once.
 */
export async function visibleResolutionIds(
  db: Kysely<Database>,
  principal: Pick<Principal, 'id' | 'isAdmin'>,
): Promise<number[]> {
  let query = db.selectFrom('resolutions').select('resolutions.id');
  if (!seesAllCommittees(principal)) {
    query = query.where(
      'resolutions.committee_id',
      'in',
      db
        .selectFrom('committee_memberships')
        .select('committee_memberships.committee_id')
        .where('committee_memberships.user_id', '=', principal.id)
        .where('committee_memberships.state', '=', 'active'),
    );
  }
  const rows = await query.execute();
  return rows.map((row) => row.id);
}

/** Ids per query when resolutions are read by id (well below either engine's parameter limit). */
const RESOLUTION_CHUNK = 500;

export interface ResolutionSearchRow {
  id: number;
  number: string;
  established_at: string;
  record: string;
}

/** Resolutions by id with what search reads of them: number, date and the record (canonical JSON). */
export async function resolutionsByIds(db: Kysely<Database>, ids: readonly number[]) {
  const rows: ResolutionSearchRow[] = [];
  for (let at = 0; at < ids.length; at += RESOLUTION_CHUNK) {
    rows.push(
      ...(await db
        .selectFrom('resolutions')
        .select(['id', 'number', 'established_at', 'record'])
        .where('id', 'in', ids.slice(at, at + RESOLUTION_CHUNK))
        .execute()),
    );
  }
  return rows;
}

/** The search state of one document's text, as the file dialog shows it. */
export async function fileTextState(db: Kysely<Database>, fileId: number) {
  const row = await db
    .selectFrom('search_texts')
    .select(['state', 'reason'])
    .where('kind', '=', 'file')
    .where('item_id', '=', fileId)
    .executeTakeFirst();
  if (!row) return 'none' as const;
  if (row.state === 'pending' || row.state === 'working') return 'pending' as const;
  if (row.state === 'failed') return row.reason === 'unsupported' ? ('none' as const) : ('failed' as const);
  return row.state;
}
