import { queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ROOT_FOLDER_ID } from '@gremienportal/contracts/common';
import type {
  CreateFileBody,
  ExplorerItem,
  ExplorerListResponse,
  FileDataResponse,
  FileListResponse,
  FileResponse,
  StoredFile,
  TreeResponse,
  UpdateFileBody,
} from '@gremienportal/contracts/files';
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
import {
  api,
  ApiError,
  DEFAULT_TIMEOUT_MS,
  openBlobInNewTab,
  saveBlob,
  TRANSPORT_MESSAGES,
  type UploadProgress,
} from '../../lib/api-client';
import { toFolderTree, type FolderNode } from './folder-tree.data';
import type { FolderTreeWorkerAnswer } from './folder-tree.worker';

export type { ExplorerItem, Folder, FolderNode, StoredFile };

export const fileKeys = {
  all: ['files'] as const,
  tree: () => [...fileKeys.all, 'tree'] as const,
  items: (folderId: number) => [...fileKeys.all, 'items', folderId] as const,
  folders: () => [...fileKeys.all, 'folders'] as const,
  folder: (id: number) => [...fileKeys.all, 'folder', id] as const,
  moveTargets: (folderId: number) => [...fileKeys.all, 'move-targets', folderId] as const,
  uploadTargets: () => [...fileKeys.all, 'upload-targets'] as const,
  recent: (limit: number) => [...fileKeys.all, 'recent', limit] as const,
  file: (id: number) => [...fileKeys.all, 'file', id] as const,
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
    const worker = new Worker(new URL('./folder-tree.worker.ts', import.meta.url), { type: 'module' });
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
    queryKey: fileKeys.tree(),
    queryFn: async ({ signal }) => {
      const { blob } = await api.download('/tree?files=false', {
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
    queryKey: fileKeys.items(folderId),
    queryFn: ({ signal }) =>
      api
        .get<ExplorerListResponse>(
          folderId === ROOT_FOLDER_ID ? '/root/files' : `/folders/${folderId}/files`,
          {
            signal,
          },
        )
        .then((body) => body.data),
  });

/** Every visible folder as a flat list, by path. */
export const foldersQueryOptions = () =>
  queryOptions({
    queryKey: fileKeys.folders(),
    queryFn: ({ signal }) => api.get<FolderListResponse>('/folders', { signal }).then((body) => body.data),
  });

/** One folder plus the number of folders and files below it (for the delete confirmation). */
export const folderQueryOptions = (id: number) =>
  queryOptions({
    queryKey: fileKeys.folder(id),
    queryFn: ({ signal }) =>
      api.get<FolderDetailResponse>(`/folders/${id}`, { signal }).then((body) => body.data),
  });

/** Where a folder may move to: every visible folder except itself and what lies below it. */
export const moveTargetsQueryOptions = (folderId: number) =>
  queryOptions({
    queryKey: fileKeys.moveTargets(folderId),
    queryFn: ({ signal }) =>
      api.get<FolderRefListResponse>(`/breadcrumbs/${folderId}`, { signal }).then((body) => body.data),
  });

/** Where files may go: every visible folder except the root. */
export const uploadTargetsQueryOptions = () =>
  queryOptions({
    queryKey: fileKeys.uploadTargets(),
    queryFn: ({ signal }) =>
      api.get<FolderRefListResponse>('/file-breadcrumbs', { signal }).then((body) => body.data),
  });

/** The newest visible files, last changed first (/old). */
export const recentFilesQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: fileKeys.recent(limit),
    queryFn: ({ signal }) =>
      api.get<FileListResponse>(`/files?limit=${limit}`, { signal }).then((body) => body.data),
  });

export const fileQueryOptions = (id: number) =>
  queryOptions({
    queryKey: fileKeys.file(id),
    queryFn: ({ signal }) => api.get<FileDataResponse>(`/files/${id}`, { signal }).then((body) => body.data),
  });

// ---------------------------------------------------------------------------------------------
// Writes: after each one the tree and every listing load again (spec § 4)

const startsWith = (key: QueryKey, prefix: QueryKey) => prefix.every((part, index) => key[index] === part);

/**
 * Marks everything of the document area stale and reloads what is on screen, except the given
 * keys (a deleted folder or file would only answer 404); those are dropped instead.
 */
async function refreshDocumentArea(
  queryClient: ReturnType<typeof useQueryClient>,
  gone: readonly QueryKey[] = [],
) {
  for (const key of gone) queryClient.removeQueries({ queryKey: key, exact: true });
  await queryClient.invalidateQueries({
    queryKey: fileKeys.all,
    predicate: (query) => !gone.some((key) => startsWith(query.queryKey, key)),
  });
}

const appendAll = (data: FormData, name: string, values: readonly (string | number)[] | undefined) => {
  for (const value of values ?? []) data.append(name, String(value));
};

/**
 * The web app uploads multipart (DESIGN 4.6): the second reading's field names, lists as
 * repeated fields, the file as part `file`.
 */
export function fileFormData(body: CreateFileBody | UpdateFileBody, file: File | null): FormData {
  const data = new FormData();
  if (body.title !== undefined) data.append('title', body.title);
  appendAll(data, 'permissions', body.permissions);
  appendAll(data, 'notifications', body.notifications);
  if (body.folder_id !== undefined) data.append('folder_id', String(body.folder_id));
  if (file) data.append('file', file, file.name);
  return data;
}

export interface UploadVariables<TBody> {
  body: TBody;
  file: File | null;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

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
      refreshDocumentArea(queryClient, [fileKeys.folder(id), fileKeys.items(id), fileKeys.moveTargets(id)]),
  });
}

export function useCreatePeriod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PeriodBody) => api.post<FolderResponse>('/period', body).then((res) => res.folder),
    onSuccess: () => refreshDocumentArea(queryClient),
  });
}

export function useCreateFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, file, onProgress, signal }: UploadVariables<CreateFileBody>) =>
      api
        .upload<FileResponse>('POST', '/files', fileFormData(body, file), onProgress, { signal })
        .then((res) => res.file),
    onSuccess: () => refreshDocumentArea(queryClient),
  });
}

export function useUpdateFile(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, file, onProgress, signal }: UploadVariables<UpdateFileBody>) =>
      api
        .upload<FileResponse>('PUT', `/files/${id}`, fileFormData(body, file), onProgress, { signal })
        .then((res) => res.file),
    onSuccess: async (file) => {
      queryClient.setQueryData(fileKeys.file(id), file);
      await refreshDocumentArea(queryClient);
    },
  });
}

export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete(`/files/${id}`),
    onSuccess: (_result, id) => refreshDocumentArea(queryClient, [fileKeys.file(id)]),
  });
}

// ---------------------------------------------------------------------------------------------
// Content: fetched with the bearer header, never with a token in the address (DESIGN 4.15)

const downloadPath = (file: Pick<StoredFile, 'external'>) => `/download/${encodeURIComponent(file.external)}`;

/** Shows the document in a new tab when the browser can do so safely, else saves it. */
export async function viewStoredFile(file: Pick<StoredFile, 'external'>): Promise<void> {
  openBlobInNewTab(await api.download(`${downloadPath(file)}?purpose=view`));
}

/** Saves the document as `title.format` (spec § 2). */
export async function downloadStoredFile(file: Pick<StoredFile, 'external' | 'title' | 'format'>) {
  const content = await api.download(downloadPath(file));
  saveBlob(content.blob, fileNameOf(file));
}

/** `title.format`, without characters no file system accepts. */
export const fileNameOf = (file: Pick<StoredFile, 'title' | 'format'>) =>
  // eslint-disable-next-line no-control-regex
  `${file.title}.${file.format}`.replace(/[\u0000-\u001f\u007f/\\]/g, '_');
