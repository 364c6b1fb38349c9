import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Serialised, SplicedJson } from '../../http/spliced-json.ts';
import { fileFilter } from '../../policies/files.policy.ts';
import { viewerKey, viewerOf, type Principal } from '../../policies/principal.ts';
import type { FilesTree } from './explorer.present.ts';
import type { FileRecord } from '../../db/document-records.ts';
import { contentSince, readsSince, type NewCandidate } from './read-state.repository.ts';
import type { CacheView } from './cache-view.ts';

type Executor = Kysely<Database> | Transaction<Database>;

const gzipAsync = promisify(gzip);

/** Slot keys of the shared answers (`countSlot`, `flagSlot`). */
export const folderSlotKey = (folderId: number) => `F${folderId}`;
export const fileSlotKey = (fileId: number) => `D${fileId}`;

/** Per-member answers kept at most (gzip bytes); beyond, the least recently used members go. */
const PERSONAL_CACHE_BYTES = 128 * 1024 * 1024;

/** When a document's current content was stored. */
export const contentTime = (file: Pick<FileRecord, 'content_at' | 'created_at'>) =>
  file.content_at ?? file.created_at;

/** What is new for one member at one version. */
export interface MemberNews {
  tree: FilesTree;
  /** Visible new documents, newest content first. */
  files: NewCandidate[];
  newIds: ReadonlySet<number>;
  /** New documents per folder, counted in the folder and every folder above it. */
  counts: ReadonlyMap<number, number>;
  /** The same as slot values of the shared answers. */
  values: ReadonlyMap<string, number | boolean>;
}

interface AnswerEntry {
  rendered: Serialised;
  gzip?: Promise<Buffer>;
  hits: number;
  bytes: number;
}

interface MemberEntry {
  userId: number;
  stamp: string;
  news: Promise<MemberNews>;
  answers: Map<string, AnswerEntry>;
  bytes: number;
}

/**
 * "Neu" per member (decision 131) over the shared read cache: the tree and listings stay one per
 * viewer kind; each member's new documents come from the shared index (documents by content
 * time, visible by the files policy) minus their reads, once per tree version and read version.
 * Their answers are the shared ones with their counts spliced in, kept per member (LRU by bytes).
 */
export class ReadState {
  private readonly members = new Map<number, MemberEntry>();
  private bytes = 0;

  constructor(
    private readonly db: () => Executor,
    private readonly budget = PERSONAL_CACHE_BYTES,
  ) {}

  private entry(view: CacheView, principal: Principal): MemberEntry {
    const viewer = viewerOf(principal);
    const { since, version } = principal.readState;
    const stamp = `${view.version}|${viewerKey(viewer)}|${since}|${version}`;
    let entry = this.members.get(principal.id);
    if (entry?.stamp !== stamp) {
      if (entry) this.bytes -= entry.bytes;
      const news = this.compute(view, principal);
      entry = { userId: principal.id, stamp, news, answers: new Map(), bytes: 0 };
      const created = entry;
      news.catch(() => this.members.get(principal.id) === created && this.members.delete(principal.id));
    } else {
      this.members.delete(principal.id);
    }
    // Map order is use order: the first entry is the least recently used.
    this.members.set(principal.id, entry);
    return entry;
  }

  private async compute(view: CacheView, principal: Principal): Promise<MemberNews> {
    const viewer = viewerOf(principal);
    const { since } = principal.readState;
    const tree = await view.folderTree(viewer);
    const [candidates, reads] = await Promise.all([
      contentSince(this.db(), since, fileFilter(tree)),
      readsSince(this.db(), principal.id, since),
    ]);
    const files: NewCandidate[] = [];
    const counts = new Map<number, number>();
    const values = new Map<string, number | boolean>();
    for (const file of candidates) {
      const readAt = reads.get(file.id);
      if (readAt !== undefined && readAt >= file.content_at) continue;
      files.push(file);
      values.set(fileSlotKey(file.id), true);
      for (let id: number | null = file.folder_id; id !== null; id = tree.byId.get(id)?.parent_id ?? null) {
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
    }
    for (const [folderId, count] of counts) values.set(folderSlotKey(folderId), count);
    return { tree, files, newIds: new Set(files.map((file) => file.id)), counts, values };
  }

  /** What is new for the member at this version. */
  news(view: CacheView, principal: Principal): Promise<MemberNews> {
    return this.entry(view, principal).news;
  }

  /** The shared answer `what` with the member's markers; the shared one itself when nothing is new. */
  async answer(
    view: CacheView,
    principal: Principal,
    what: string,
    template: SplicedJson,
  ): Promise<Serialised> {
    const member = this.entry(view, principal);
    const news = await member.news;
    if (news.newIds.size === 0) return template.plain;
    let answer = member.answers.get(what);
    if (!answer) {
      answer = { rendered: template.render(news.values), hits: 0, bytes: 0 };
      member.answers.set(what, answer);
    }
    answer.hits += 1;
    const current = answer;
    // A large answer is spliced at first (quick, a third larger); one asked for again is
    // compressed whole in the background, so a member who keeps coming gets the small one.
    if (current.hits === 2 && template.splices) {
      gzipAsync(current.rendered.json, { level: 6 }).then(
        (whole) => this.store(member, current, whole),
        () => undefined,
      );
    }
    return {
      get json() {
        return current.rendered.json;
      },
      gzip: () => {
        if (!current.gzip) {
          current.gzip = current.rendered.gzip();
          current.gzip.then(
            (made) => this.store(member, current, made),
            () => (current.gzip = undefined),
          );
        }
        return current.gzip;
      },
    };
  }

  private store(member: MemberEntry, answer: AnswerEntry, gzipped: Buffer): void {
    // A member whose read state or tree changed meanwhile has a new entry; the old one is gone.
    if (this.members.get(member.userId) !== member) return;
    answer.gzip = Promise.resolve(gzipped);
    const added = gzipped.length - answer.bytes;
    answer.bytes = gzipped.length;
    member.bytes += added;
    this.bytes += added;
    for (const [id, oldest] of this.members) {
      if (this.bytes <= this.budget) break;
      if (oldest === member) continue;
      this.members.delete(id);
      this.bytes -= oldest.bytes;
    }
  }
}
