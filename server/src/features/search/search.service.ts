import type {
  SearchHit,
  SearchQuery,
  SearchResponse,
  SuggestResponse,
} from '@gremienportal/contracts/search';
import { SUGGEST_LIMIT } from '@gremienportal/contracts/search';
import { auditRangeBound } from '@gremienportal/contracts/audit';
import type { AppContext } from '../../context.ts';
import { keyMayCall } from '../../policies/api-key.policy.ts';
import { seesAllCommittees } from '../../policies/committees.policy.ts';
import { eventFilter } from '../../policies/events.policy.ts';
import { fileFilter } from '../../policies/files.policy.ts';
import type { FolderNode, FolderTree } from '../../policies/folders.policy.ts';
import { viewerKey, viewerOf, type Viewer } from '../../policies/principal.ts';
import type { Principal } from '../../policies/principal.ts';
import { INDEXABLE_LENGTH, matchRanges, parseQuery, snippetOf, type SearchTerm } from '../../search/fold.ts';
import type { ReadCache } from '../explorer/explorer.service.ts';
import {
  entryList,
  eventEntry,
  resolutionEntry,
  resolutionRecordOf,
  visibleEntries,
  type Entry,
  type EntryList,
  type ResolutionEntry,
} from './search-entries.ts';
import * as repo from './search.repository.ts';
import { scoresOf, termMatches, type TermMatches } from './term-matches.ts';

/** The search state of a document's text, for the file dialog (files feature). */
export function fileTextState(ctx: Pick<AppContext, 'db'>, fileId: number) {
  return repo.fileTextState(ctx.db.kysely, fileId);
}

/** A match before paging: what it is, how well it matched, and what to show. */
interface Candidate {
  entry: Entry;
  /** Terms found in the title. */
  inTitle: number;
  /** Sum of the content scores of the terms found in the text. */
  contentScore: number;
  /** The text holds the terms: show a snippet. */
  content: boolean;
}

/** Which texts the viewer of `tree` may see (documents by the tree and their roles, events by theirs). */
function textFilter(tree: FolderTree<FolderNode>): repo.TextFilter | undefined {
  const files = fileFilter(tree);
  const events = eventFilter(tree.viewer);
  return files && events ? { files, events } : undefined;
}

/** The route a resolution hit opens for: an API-Schlüssel that may not read it finds none. */
const RESOLUTION_ROUTE = '/api/v1/resolutions/:id';

/** Terms (per viewer kind) whose matches are kept per version. */
const TERM_CACHE_SIZE = 200;

/**
 * Counts the matches and keeps the first `size` of them in `compare` order, without keeping or
 * sorting all: a search for a common word matches thousands of documents, and a page shows twenty.
 */
class Best {
  count = 0;
  readonly items: Candidate[] = [];

  constructor(
    private readonly size: number,
    private readonly compare: (a: Candidate, b: Candidate) => number,
  ) {}

  offer(candidate: Candidate): void {
    this.count += 1;
    const { items, size, compare } = this;
    if (items.length === size && compare(candidate, items[size - 1]!) >= 0) return;
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compare(candidate, items[middle]!) < 0) high = middle;
      else low = middle + 1;
    }
    items.splice(low, 0, candidate);
    if (items.length > size) items.pop();
  }
}

/**
 * Search over what the viewer may see (decision 128). Titles (documents, folders) come
 * from the tree cache, so renames, moves and role changes count at once; events are kept per
 * version of their own counter (decision 142); text inside documents and information files comes
 * from the index, one lookup per term; resolutions (decision 190) are those of the member's
 * committees now, read per request, with their number, title and text. An item matches when every
 * term is in its title (or place and description) or in its text.
 */
export function searchService(ctx: AppContext, cache: ReadCache) {
  const k = () => ctx.db.kysely;
  /**
   * Each term's matches as one kind of viewer may see them, shared by the queries of that kind
   * while the index, the tree and the events stay the same: a common word matches most documents,
   * and looking it up costs far more than the request around it. Texts the viewer may not see are
   * left out by the query itself, so neither the lookup nor the merge takes longer for a word only
   * hidden documents contain (decision 150); every hit still passes the visible entries.
   */
  let termCache = { version: '', sets: new Map<string, Promise<TermMatches>>() };
  /**
   * The events each kind of viewer may see, folded, until an event or its roles change (the
   * counter of migration 0012): reading and folding every event cost a third of a search. The
   * counter is read before the events, so kept entries are never older than their version.
   */
  let eventCache = { version: '', byViewer: new Map<string, Promise<EntryList>>() };
  /**
   * Resolutions folded, by id. The Beschlussbuch never updates nor deletes a row (decision 190),
   * so an entry, once built, holds for good and needs no version; only who may see it changes,
   * with memberships, and no counter follows those. So nothing of the viewer is kept: every request
   * reads the ids it may see (one indexed query) and takes the entries from here, building only
   * those of resolutions it has not met yet.
   */
  const resolutionEntries = new Map<number, ResolutionEntry>();

  /** The resolutions the principal may see now, as the Beschlussbuch shows them. */
  async function visibleResolutionEntries(principal: Principal): Promise<ResolutionEntry[]> {
    if (!keyMayCall(principal, 'GET', RESOLUTION_ROUTE)) return [];
    // Nobody without a membership, past or present, sees a resolution: no query for them.
    if (!seesAllCommittees(principal) && !principal.hasCommitteeMemberships) return [];
    const ids = await repo.visibleResolutionIds(k(), principal);
    const missing = ids.filter((id) => !resolutionEntries.has(id));
    if (missing.length > 0) {
      for (const row of await repo.resolutionsByIds(k(), missing)) {
        resolutionEntries.set(row.id, resolutionEntry(row));
      }
    }
    return ids.flatMap((id) => resolutionEntries.get(id) ?? []);
  }

  /** `version`: the events counter, when the request has read it already. */
  async function visibleEventEntries(viewer: Viewer, version?: string): Promise<EntryList> {
    version ??= await repo.counterValue(k(), 'events');
    if (version !== eventCache.version) eventCache = { version, byViewer: new Map() };
    const key = viewerKey(viewer);
    const byViewer = eventCache.byViewer;
    let entries = byViewer.get(key);
    if (!entries) {
      entries = repo.visibleEvents(k(), viewer).then((rows) => entryList(rows.map(eventEntry)));
      byViewer.set(key, entries);
      entries.catch(() => byViewer.get(key) === entries && byViewer.delete(key));
    }
    return entries;
  }

  function matchesOf(term: SearchTerm, tree: FolderTree<FolderNode>) {
    const key = `${viewerKey(tree.viewer)} ${term.folded}`;
    let entry = termCache.sets.get(key);
    if (!entry) {
      const sets = termCache.sets;
      entry = repo.contentMatches(k(), ctx.db.dialect, term, textFilter(tree)).then(termMatches);
      sets.set(key, entry);
      entry.catch(() => sets.get(key) === entry && sets.delete(key));
      // The oldest go first (a Map keeps insertion order).
      if (sets.size > TERM_CACHE_SIZE) sets.delete(sets.keys().next().value!);
    }
    return entry;
  }

  /**
   * For each indexable term, the items the viewer may see whose text contains it. The kept
   * matches hold for one version of the index, the tree (`treeVersion`, whose tree `tree` is) and
   * the events (`counters.events`), as each decides what the viewer may see.
   */
  async function contentSets(
    terms: readonly SearchTerm[],
    tree: FolderTree<FolderNode>,
    treeVersion: string,
    counters: { search: string; events: string },
  ) {
    const version = `${counters.search} ${counters.events} ${treeVersion}`;
    if (version !== termCache.version) termCache = { version, sets: new Map() };
    const sets = new Map<string, TermMatches>();
    for (const term of terms) {
      if (term.folded.length >= INDEXABLE_LENGTH) sets.set(term.folded, await matchesOf(term, tree));
    }
    return sets;
  }

  /**
   * The entries that hold every term in their title-like text or their indexed text. Titles are
   * sought with the list's title index and texts merged in key order, once per term; the loop over
   * every visible entry then reads arrays only (decision 143).
   */
  function match(
    list: EntryList,
    terms: readonly SearchTerm[],
    sets: ReadonlyMap<string, TermMatches>,
    found: Best,
    accept?: (entry: Entry) => boolean,
  ): void {
    const { entries } = list;
    const inTitles = terms.map((term) => list.titles.hits(term.folded));
    const inTexts = terms.map((term) => {
      const matches = sets.get(term.folded);
      return matches && scoresOf(list.byKey, matches, entries.length);
    });
    for (let index = 0; index < entries.length; index += 1) {
      let inTitle = 0;
      let contentScore = 0;
      // A text that holds the terms too earns its snippet even when the title matched already.
      let inText = true;
      let missing = false;
      for (let i = 0; i < terms.length; i += 1) {
        // NaN: the entry's text lacks the term (or it has none); no scores: texts were not sought.
        const value = inTexts[i]?.[index] ?? Number.NaN;
        const textHolds = !Number.isNaN(value);
        if (!textHolds) inText = false;
        if (inTitles[i]![index] === 1) {
          inTitle += 1;
        } else if (!textHolds) {
          missing = true;
          break;
        } else {
          contentScore += value;
        }
      }
      if (missing) continue;
      const entry = entries[index]!;
      if (accept && !accept(entry)) continue;
      found.offer({ entry, inTitle, contentScore, content: inText || inTitle < terms.length });
    }
  }

  /**
   * The resolutions that hold every term in their number and title or in their text, sought in each
   * directly (a committee decides a few dozen a year). As with the index, only terms of
   * `INDEXABLE_LENGTH` or more are sought in a text, and texts only when `withContent`.
   */
  function matchResolutions(
    list: readonly ResolutionEntry[],
    terms: readonly SearchTerm[],
    withContent: boolean,
    found: Best,
    accept?: (entry: Entry) => boolean,
  ): void {
    const inTexts = terms.map((term) => withContent && term.folded.length >= INDEXABLE_LENGTH);
    for (const { entry, text } of list) {
      let inTitle = 0;
      let contentScore = 0;
      let inText = true;
      let missing = false;
      for (let i = 0; i < terms.length; i += 1) {
        const term = terms[i]!.folded;
        const textHolds = inTexts[i]! && text.includes(term);
        if (!textHolds) inText = false;
        if (entry.folded.includes(term)) {
          inTitle += 1;
        } else if (!textHolds) {
          missing = true;
          break;
        } else {
          contentScore += 1;
        }
      }
      if (missing) continue;
      if (accept && !accept(entry)) continue;
      found.offer({ entry, inTitle, contentScore, content: inText || inTitle < terms.length });
    }
  }

  /** The matches of the query the viewer may see: how many, and the first `found` keeps. */
  async function collect(
    principal: Principal,
    query: Pick<SearchQuery, 'type' | 'format' | 'folder_id' | 'from' | 'to'>,
    terms: readonly SearchTerm[],
    withContent: boolean,
    found: Best,
  ): Promise<void> {
    const viewer = viewerOf(principal);
    const view = await cache.view();
    const [visible, counters] = await Promise.all([
      view.derived(`search:${viewerKey(viewer)}`, (files, folders) => visibleEntries(files, folders, viewer)),
      withContent ? repo.searchCounters(k()) : undefined,
    ]);
    const { tree } = visible;
    const sets = counters
      ? await contentSets(terms, tree, view.version, counters)
      : new Map<string, TermMatches>();
    const within =
      query.folder_id === undefined
        ? undefined
        : tree.find(query.folder_id)
          ? new Set([query.folder_id, ...tree.descendantIds(query.folder_id)])
          : new Set<number>();
    const from = query.from ? auditRangeBound(query.from, 'from') : null;
    const to = query.to ? auditRangeBound(query.to, 'to') : null;
    const inRange =
      from || to
        ? (entry: Entry) => {
            const at = new Date(entry.hit.date).toISOString();
            return (!from || at >= from) && (!to || at < to);
          }
        : undefined;
    const both = (a?: (entry: Entry) => boolean, b?: (entry: Entry) => boolean) =>
      a && b ? (entry: Entry) => a(entry) && b(entry) : (a ?? b);
    if (!query.type || query.type === 'file') {
      const format = query.format;
      const place =
        within || format
          ? (entry: Entry) =>
              (!within || within.has(entry.folderId!)) && (!format || entry.hit.format === format)
          : undefined;
      match(visible.files, terms, sets, found, both(place, inRange));
    }
    if ((!query.type || query.type === 'folder') && !query.format) {
      const place = within
        ? (entry: Entry) => within.has(entry.folderId!) && entry.folderId !== query.folder_id
        : undefined;
      match(visible.folders, terms, sets, found, both(place, inRange));
    }
    if ((!query.type || query.type === 'event') && !query.format && !within) {
      match(await visibleEventEntries(viewer, counters?.events), terms, sets, found, inRange);
    }
    if ((!query.type || query.type === 'resolution') && !query.format && !within) {
      matchResolutions(await visibleResolutionEntries(principal), terms, withContent, found, inRange);
    }
  }

  // ISO 8601 strings in UTC compare as text; newest first.
  const byDate = (a: Candidate, b: Candidate) => {
    const x = a.entry.hit;
    const y = b.entry.hit;
    return x.date < y.date ? 1 : x.date > y.date ? -1 : x.id - y.id || (x.type < y.type ? -1 : 1);
  };
  const byRelevance = (a: Candidate, b: Candidate) =>
    b.inTitle - a.inTitle || b.contentScore - a.contentScore || byDate(a, b);

  return {
    async search(principal: Principal, query: SearchQuery): Promise<SearchResponse> {
      const terms = parseQuery(query.q);
      const meta = { total: 0, page: query.page, per_page: query.per_page };
      if (terms.length === 0) return { data: [], meta };
      const upTo = query.page * query.per_page;
      const found = new Best(upTo, query.sort === 'date' ? byDate : byRelevance);
      await collect(principal, query, terms, true, found);
      const page = found.items.slice(upTo - query.per_page);
      const contentKeys = page.flatMap(({ entry, content }) =>
        content && entry.key !== null ? [entry.key] : [],
      );
      const resolutionIds = page.flatMap(({ entry, content }) =>
        content && entry.hit.type === 'resolution' ? [entry.hit.id] : [],
      );
      const [texts, states, resolutionTexts] = await Promise.all([
        repo.textsOf(k(), contentKeys),
        repo.fileTextStates(
          k(),
          page.filter(({ entry }) => entry.hit.type === 'file').map(({ entry }) => entry.hit.id),
        ),
        resolutionIds.length > 0 ? repo.resolutionsByIds(k(), resolutionIds) : [],
      ]);
      const resolutionText = new Map(
        resolutionTexts.map((row) => [row.id, resolutionRecordOf(row.record).text]),
      );
      const data = page.map(({ entry, content }): SearchHit => {
        const { hit } = entry;
        // Resolutions keep their text in the record, the others in the index of texts.
        const text = !content
          ? undefined
          : hit.type === 'resolution'
            ? resolutionText.get(hit.id)
            : entry.key === null
              ? undefined
              : texts.get(entry.key);
        const state = hit.type === 'file' ? states.get(hit.id) : undefined;
        return {
          ...hit,
          highlight: matchRanges(hit.title, terms),
          snippet: text ? snippetOf(text, terms) : null,
          searchable: hit.type === 'file' ? state !== 'empty' && state !== 'failed' : null,
        };
      });
      return { data, meta: { ...meta, total: found.count } };
    },

    /** Titles only, the best few: the header field's dropdown while typing. */
    async suggest(principal: Principal, q: string): Promise<SuggestResponse> {
      const terms = parseQuery(q);
      if (terms.length === 0) return { data: [] };
      const found = new Best(SUGGEST_LIMIT, byRelevance);
      await collect(principal, {}, terms, false, found);
      return {
        data: found.items.map(({ entry: { hit } }) => ({
          type: hit.type,
          id: hit.id,
          title: hit.title,
          highlight: matchRanges(hit.title, terms),
          breadcrumb: hit.breadcrumb,
          folder_id: hit.folder_id,
          format: hit.format,
        })),
      };
    },
  };
}
