import type { TreeNode } from '@gremienportal/contracts/files';
import type { SplicedJson } from '../../http/spliced-json.ts';
import type { Viewer } from '../../policies/principal.ts';
import type { FilesTree } from './explorer.present.ts';
import type { FileRecord, FolderRecord } from '../../db/document-records.ts';

export interface Snapshot {
  tree: FilesTree;
  fileCounts: ReadonlyMap<number, number>;
}

/** The cache at one version (`ReadCache.view`). */
export interface CacheView {
  version: string;
  folderTree(viewer: Viewer): Promise<FilesTree>;
  snapshot(viewer: Viewer): Promise<Snapshot>;
  listing(
    viewer: Viewer,
    folderId: number,
    build: (snapshot: Snapshot) => Promise<unknown>,
  ): Promise<SplicedJson | undefined>;
  serialisedTree(
    viewer: Viewer,
    withFiles: boolean,
    build: (tree: FilesTree, files: readonly FileRecord[] | undefined) => TreeNode,
  ): Promise<SplicedJson>;
  derived<T>(
    key: string,
    build: (files: readonly FileRecord[], folders: readonly FolderRecord[]) => T,
  ): Promise<T>;
}
