import type { TreeResponse } from '@gremienportal/contracts/files';
import { toFolderTree, type FolderNode } from './folder-tree.data';

export interface FolderTreeWorkerAnswer {
  /** Null when the body was not a tree. */
  tree: FolderNode | null;
}

/**
 * Decodes and parses the body of `GET /tree` off the main thread and answers with the folders
 * only: on a large portal the parse alone blocked the explorer for a noticeable time (decision 114).
 */
self.onmessage = async (event: MessageEvent<Blob>) => {
  let answer: FolderTreeWorkerAnswer;
  try {
    const body = JSON.parse(await event.data.text()) as TreeResponse;
    answer = { tree: toFolderTree(body.data) };
  } catch {
    answer = { tree: null };
  }
  self.postMessage(answer);
};
