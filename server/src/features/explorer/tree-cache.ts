import type { TreeNode } from '@gremienportal/contracts/files';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { fileRoleFilter } from '../../policies/files.policy.ts';
import { compareTitles, FolderTree } from '../../policies/folders.policy.ts';
import { viewerKey, type Viewer } from '../../policies/principal.ts';
import { SplicedJson, type Serialised } from '../../http/spliced-json.ts';
import type { CacheView, Snapshot } from './cache-view.ts';
import { ReadState } from './read-state.ts';
import type { FilesTree } from './explorer.present.ts';
import {
  countFilesByFolder,
  loadFiles,
  loadFolders,
  readTreeVersion,
  type FileRecord,
  type FolderRecord,
} from '../../db/document-records.ts';

type Executor = Kysely<Database> | Transaction<Database>;

export type { CacheView, Serialised, Snapshot };

/** Listings kept per version at most: beyond this, listings are built per request. */
const LISTING_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * An answer `{ "data": … }` serialised once for everyone with the same roles; the slots for each
 * member's "neu" markers are filled per member (read-state.ts).
 */
const serialise = (data: unknown) => new SplicedJson(data);

/** A failed load is not kept: the next request tries again. */
function forgetOnFailure<T>(load: Promise<T>, forget: () => void): Promise<T> {
  load.catch(forget);
  return load;
}

/** Per viewer kind: the first caller builds, everyone else with the same roles shares it. */
class PerViewer<T> {
  private readonly entries = new Map<string, Promise<T>>();
  get(viewer: Viewer, build: () => Promise<T>): Promise<T> {
    const key = viewerKey(viewer);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = build();
      this.entries.set(key, entry);
      // A failed build is not kept: the next request tries again.
      entry.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    }
    return entry;
  }
}

interface Generation {
  version: string;
  folders?: Promise<FolderRecord[]>;
  /** Every document with its roles, sorted by title: what the trees of all viewer kinds filter. */
  files?: Promise<FileRecord[]>;
  trees: PerViewer<FilesTree>;
  counts: PerViewer<Map<number, number>>;
  serialised: PerViewer<SplicedJson>;
  foldersOnly: PerViewer<SplicedJson>;
  listings: Map<string, Promise<SplicedJson>>;
  listingBytes: number;
  /** What other features build once per version from all folders and documents (search). */
  derived: Map<string, Promise<unknown>>;
}

/**
 * What every read of folders and documents starts from: all folders with their roles, the folder
 * tree as one kind of viewer (Admins, or one set of roles) sees it, that viewer's document counts
 * and the serialised `GET /tree` answer. Valid while the database's tree version stays the same
 * (migration 0002: triggers raise it on every change to folders, files and their roles). Every
 * request reads the version first, so a change on any instance is seen on the next request, and
 * data loaded after that read is never older than its version (decision 111).
 *
 * Reads only: writes work on fresh rows inside their transaction.
 */
export class ReadCache {
  private generation: Generation | undefined;
  /** Each member's "neu" markers over this cache (decision 131). */
  readonly reads: ReadState;

  constructor(private readonly db: () => Executor) {
    this.reads = new ReadState(db);
  }

  /**
   * Everything one request reads, at one version: the version is read once, so a request that
   * needs a listing and the member's read state (read-state.ts) costs one counter read.
   */
  async view(): Promise<CacheView> {
    const generation = await this.current();
    return {
      version: generation.version,
      folderTree: (viewer) => this.treeIn(generation, viewer),
      snapshot: (viewer) => this.snapshotIn(generation, viewer),
      listing: (viewer, folderId, build) => this.listingIn(generation, viewer, folderId, build),
      serialisedTree: (viewer, withFiles, build) => this.treeAnswerIn(generation, viewer, withFiles, build),
      derived: (key, build) => this.derivedIn(generation, key, build),
    };
  }

  private async current(): Promise<Generation> {
    const version = await readTreeVersion(this.db());
    if (this.generation?.version !== version) {
      this.generation = {
        version,
        trees: new PerViewer(),
        counts: new PerViewer(),
        serialised: new PerViewer(),
        foldersOnly: new PerViewer(),
        listings: new Map(),
        listingBytes: 0,
        derived: new Map(),
      };
    }
    return this.generation;
  }

  private folders(generation: Generation): Promise<FolderRecord[]> {
    return (generation.folders ??= forgetOnFailure(
      loadFolders(this.db()),
      () => (generation.folders = undefined),
    ));
  }

  private treeIn(generation: Generation, viewer: Viewer): Promise<FilesTree> {
    return generation.trees.get(viewer, async () => new FolderTree(await this.folders(generation), viewer));
  }

  /** The folder tree as this viewer sees it. */
  async folderTree(viewer: Viewer): Promise<FilesTree> {
    return this.treeIn(await this.current(), viewer);
  }

  /** The tree and the viewer's visible documents per folder. */
  async snapshot(viewer: Viewer): Promise<Snapshot> {
    return this.snapshotIn(await this.current(), viewer);
  }

  private async snapshotIn(generation: Generation, viewer: Viewer): Promise<Snapshot> {
    const [tree, fileCounts] = await Promise.all([
      this.treeIn(generation, viewer),
      generation.counts.get(viewer, () => countFilesByFolder(this.db(), fileRoleFilter(viewer))),
    ]);
    return { tree, fileCounts };
  }

  /**
   * A folder's listing as this viewer kind sees it, serialised once per version; undefined when
   * the folder is hidden or missing. Bounded: past LISTING_CACHE_BYTES per version, listings are
   * built per request.
   */
  async listing(
    viewer: Viewer,
    folderId: number,
    build: (snapshot: Snapshot) => Promise<unknown>,
  ): Promise<SplicedJson | undefined> {
    return this.listingIn(await this.current(), viewer, folderId, build);
  }

  private async listingIn(
    generation: Generation,
    viewer: Viewer,
    folderId: number,
    build: (snapshot: Snapshot) => Promise<unknown>,
  ): Promise<SplicedJson | undefined> {
    const snapshot = await this.snapshotIn(generation, viewer);
    if (!snapshot.tree.find(folderId)) return undefined;
    const key = `${folderId}:${viewerKey(viewer)}`;
    const cached = generation.listings.get(key);
    if (cached) return cached;
    const made = build(snapshot).then(serialise);
    if (generation.listingBytes < LISTING_CACHE_BYTES) {
      generation.listings.set(key, made);
      made.then(
        (listing) => (generation.listingBytes += listing.json.length),
        () => generation.listings.get(key) === made && generation.listings.delete(key),
      );
    }
    return made;
  }

  private files(generation: Generation): Promise<FileRecord[]> {
    return (generation.files ??= forgetOnFailure(
      loadFiles(this.db()).then((files) => files.sort(compareTitles)),
      () => (generation.files = undefined),
    ));
  }

  /**
   * Something built once per version from every folder and document with their roles (the search's
   * folded titles), shared by all viewers; `key` names it.
   */
  async derived<T>(
    key: string,
    build: (files: readonly FileRecord[], folders: readonly FolderRecord[]) => T,
  ): Promise<T> {
    return this.derivedIn(await this.current(), key, build);
  }

  private derivedIn<T>(
    generation: Generation,
    key: string,
    build: (files: readonly FileRecord[], folders: readonly FolderRecord[]) => T,
  ): Promise<T> {
    let entry = generation.derived.get(key) as Promise<T> | undefined;
    if (!entry) {
      entry = Promise.all([this.files(generation), this.folders(generation)]).then(([files, folders]) =>
        build(files, folders),
      );
      generation.derived.set(key, entry);
      entry.catch(() => generation.derived.get(key) === entry && generation.derived.delete(key));
    }
    return entry;
  }

  /** The `GET /tree` answer (with or without documents), serialised once per version and viewer kind. */
  async serialisedTree(
    viewer: Viewer,
    withFiles: boolean,
    build: (tree: FilesTree, files: readonly FileRecord[] | undefined) => TreeNode,
  ): Promise<SplicedJson> {
    return this.treeAnswerIn(await this.current(), viewer, withFiles, build);
  }

  private treeAnswerIn(
    generation: Generation,
    viewer: Viewer,
    withFiles: boolean,
    build: (tree: FilesTree, files: readonly FileRecord[] | undefined) => TreeNode,
  ): Promise<SplicedJson> {
    if (!withFiles) {
      return generation.foldersOnly.get(viewer, async () =>
        serialise(build(await this.treeIn(generation, viewer), undefined)),
      );
    }
    return generation.serialised.get(viewer, async () => {
      const [tree, files] = await Promise.all([this.treeIn(generation, viewer), this.files(generation)]);
      return serialise(build(tree, files));
    });
  }
}
