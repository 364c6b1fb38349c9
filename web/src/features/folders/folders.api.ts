import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExplorerListResponse, TreeResponse } from '@gremienportal/contracts/files';
import type {
  CreateFolderBody,
  Folder,
  FolderDetailResponse,
  FolderListResponse,
  FolderRefListResponse,
  FolderResponse,
  PeriodBody,
  UpdateFolderBody,
} from '@gremienportal/contracts/folders';
import { api, ApiError, DEFAULT_TIMEOUT_MS, TRANSPORT_MESSAGES } from '../../lib/api-client';
import { refreshDocumentArea } from '../../lib/document-area';
import { toFolderTree, type FolderNode } from './folder-tree.data';
import { FOLDER_TREE_PATH, folderItemsPath } from './folders.rules';
import type { FolderTreeWorkerAnswer } from './folder-tree.worker';

export type { Folder, FolderNode };

export const folderKeys = {
  all: ['folders'] as const,
  tree: () => [...folderKeys.all, 'tree'] as const,
  items: (folderId: number) => [...folderKeys.all, 'items', folderId] as const,
  list: () => [...folderKeys.all, 'list'] as const,
  detail: (id: number) => [...folderKeys.all, 'detail', id] as const,
  moveTargets: (folderId: number) => [...folderKeys.all, 'move-targets', folderId] as const,
  uploadTargets: () => [...folderKeys.all, 'upload-targets'] as const,
};

// ---------------------------------------------------------------------------------------------
// Reads

const invalidResponse = () =>
  new ApiError(0, TRANSPORT_MESSAGES.invalidResponse, { kind: 'invalid-response' });

async function parseFolderTreeHere(body: Blob): Promise<FolderNode> {
  try {
    return toFolderTree((JSON.parse(await body.text()) as TreeResponse).data);
  } catch {
    throw invalidResponse();
  }
}

/**
 * The folders of a `GET /tree` body, parsed in a worker so the page stays responsive while
 * megabytes of JSON are read; where no worker can start (tests, a strict browser) on this thread.
 */
function parseFolderTree(body: Blob, signal?: AbortSignal): Promise<FolderNode> {
  if (typeof Worker === 'undefined') return parseFolderTreeHere(body);
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./folder-tree.worker.ts', import.meta.url), {
      type: 'module',
    });
    const finish = () => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(new ApiError(0, TRANSPORT_MESSAGES.aborted, { kind: 'aborted' }));
    };
    worker.onmessage = (event: MessageEvent<FolderTreeWorkerAnswer>) => {
      finish();
      if (event.data.tree) resolve(event.data.tree);
      else reject(invalidResponse());
    };
    worker.onerror = (event) => {
      event.preventDefault();
      finish();
      parseFolderTreeHere(body).then(resolve, reject);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(body);
  });
}

/**
 * The whole visible folder tree from the root (sidebar, active path), without the documents
 * (`?files=false`: the server leaves them out, nine tenths of the answer on a large portal); the
 * body is taken as it arrives and parsed off the main thread (decision 114).
 */
export const treeQueryOptions = () =>
  queryOptions({
    queryKey: folderKeys.tree(),
    queryFn: async ({ signal }) => {
      const { blob } = await api.download(FOLDER_TREE_PATH, {
        signal,
        timeoutMs: DEFAULT_TIMEOUT_MS,
        headers: { Accept: 'application/json' },
      });
      return parseFolderTree(blob, signal);
    },
  });

/** Subfolders first, then files, of one folder (the explorer grid). */
export const folderItemsQueryOptions = (folderId: number) =>
  queryOptions({
    queryKey: folderKeys.items(folderId),
    queryFn: ({ signal }) =>
      api.get<ExplorerListResponse>(folderItemsPath(folderId), { signal }).then((body) => body.data),
  });

/** Every visible folder as a flat list, by path. */
export const foldersQueryOptions = () =>
  queryOptions({
    queryKey: folderKeys.list(),
    queryFn: ({ signal }) => api.get<FolderListResponse>('/folders', { signal }).then((body) => body.data),
  });

/** One folder plus the number of folders and files below it (for the delete confirmation). */
export const folderQueryOptions = (id: number) =>
  queryOptions({
    queryKey: folderKeys.detail(id),
    queryFn: ({ signal }) =>
      api.get<FolderDetailResponse>(`/folders/${id}`, { signal }).then((body) => body.data),
  });

/** Where a folder may move to: every visible folder except itself and what lies below it. */
export const moveTargetsQueryOptions = (folderId: number) =>
  queryOptions({
    queryKey: folderKeys.moveTargets(folderId),
    queryFn: ({ signal }) =>
      api.get<FolderRefListResponse>(`/breadcrumbs/${folderId}`, { signal }).then((body) => body.data),
  });

/** Where files may go: every visible folder except the root. */
export const uploadTargetsQueryOptions = () =>
  queryOptions({
    queryKey: folderKeys.uploadTargets(),
    queryFn: ({ signal }) =>
      api.get<FolderRefListResponse>('/file-breadcrumbs', { signal }).then((body) => body.data),
  });

// ---------------------------------------------------------------------------------------------
// Writes: after each one the tree and every listing load again (product.md P4, lib/document-area)

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateFolderBody) =>
      api.post<FolderResponse>('/folders', body).then((res) => res.folder),
    onSuccess: () => refreshDocumentArea(queryClient),
  });
}

export function useUpdateFolder(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateFolderBody) =>
      api.put<FolderResponse>(`/folders/${id}`, body).then((res) => res.folder),
    onSuccess: () => refreshDocumentArea(queryClient),
  });
}

export function useDeleteFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/folders/${id}`),
    onSuccess: (_result, id) =>
      refreshDocumentArea(queryClient, [
        folderKeys.detail(id),
        folderKeys.items(id),
        folderKeys.moveTargets(id),
      ]),
  });
}

export function useCreatePeriod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PeriodBody) => api.post<FolderResponse>('/period', body).then((res) => res.folder),
    onSuccess: () => refreshDocumentArea(queryClient),
  });
}
