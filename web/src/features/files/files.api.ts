import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateFileBody,
  ExplorerItem,
  FileDataResponse,
  FileListResponse,
  FileResponse,
  StoredFile,
  UpdateFileBody,
} from '@gremienportal/contracts/files';
import type {
  FileVersion,
  FileVersionListResponse,
  VersionRestoreResponse,
} from '@gremienportal/contracts/versions';
import type { UploadBatchResponse } from '@gremienportal/contracts/files-batches';
import { api, type UploadProgress } from '../../lib/api-client';
import { openBlobInNewTab, saveBlob } from '../../lib/saved-files';
import { fileNameOf } from '../../lib/document-content';
import { refreshDocumentArea } from '../../lib/document-area';

export type { ExplorerItem, FileVersion, StoredFile };

export const fileKeys = {
  all: ['files'] as const,
  recent: (limit: number) => [...fileKeys.all, 'recent', limit] as const,
  file: (id: number) => [...fileKeys.all, 'file', id] as const,
  versions: (id: number) => [...fileKeys.all, 'versions', id] as const,
};

// ---------------------------------------------------------------------------------------------
// Reads

/** The newest visible files, last changed first (/old). */
export const recentFilesQueryOptions = (limit: number) =>
  queryOptions({
    queryKey: fileKeys.recent(limit),
    queryFn: ({ signal }) =>
      api.get<FileListResponse>(`/files?limit=${limit}`, { signal }).then((body) => body.data),
  });

/**
 * Every document that is new for the member, newest content first ("Neu für Sie", "alle
 * anzeigen"): `GET /news` lists ten, `GET /files` carries the marker on each visible document.
 */
export const newFilesQueryOptions = () =>
  queryOptions({
    queryKey: [...fileKeys.all, 'new'] as const,
    queryFn: ({ signal }) =>
      api
        .get<FileListResponse>('/files', { signal })
        .then((body) => body.data.filter((file) => file.new === true)),
  });

export const fileQueryOptions = (id: number) =>
  queryOptions({
    queryKey: fileKeys.file(id),
    queryFn: ({ signal }) => api.get<FileDataResponse>(`/files/${id}`, { signal }).then((body) => body.data),
  });

/** The versions of a document, newest (the current one) first; admins only (decision 125). */
export const fileVersionsQueryOptions = (id: number) =>
  queryOptions({
    queryKey: fileKeys.versions(id),
    queryFn: ({ signal }) =>
      api.get<FileVersionListResponse>(`/files/${id}/versions`, { signal }).then((body) => body.data),
    staleTime: 0,
  });

// ---------------------------------------------------------------------------------------------
// Writes: after each one the tree and every listing load again (product.md P4, lib/document-area)

const appendAll = (data: FormData, name: string, values: readonly (string | number)[] | undefined) => {
  for (const value of values ?? []) data.append(name, String(value));
};

/**
 * The web app uploads multipart (product.md P6.6): the second reading's field names, lists as
 * repeated fields, the file as part `file`.
 */
export function fileFormData(body: CreateFileBody | UpdateFileBody, file: File | null): FormData {
  const data = new FormData();
  if (body.title !== undefined) data.append('title', body.title);
  appendAll(data, 'permissions', body.permissions);
  appendAll(data, 'notifications', body.notifications);
  if (body.folder_id !== undefined) data.append('folder_id', String(body.folder_id));
  // One of several documents uploaded in one go (decision 182).
  if ('batch_id' in body && body.batch_id) data.append('batch_id', body.batch_id);
  // Kenntnisnahme (decision 131): an empty "bis" removes the date.
  if (body.acknowledgement_required !== undefined)
    data.append('acknowledgement_required', String(body.acknowledgement_required));
  if (body.acknowledgement_due !== undefined)
    data.append('acknowledgement_due', body.acknowledgement_due ?? '');
  if ('acknowledgement_reset' in body && body.acknowledgement_reset !== undefined)
    data.append('acknowledgement_reset', String(body.acknowledgement_reset));
  if (file) data.append('file', file, file.name);
  return data;
}

export interface UploadVariables<TBody> {
  body: TBody;
  file: File | null;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** `POST /files`: one new document. */
export const createFileRequest = ({ body, file, onProgress, signal }: UploadVariables<CreateFileBody>) =>
  api
    .upload<FileResponse>('POST', '/files', fileFormData(body, file), onProgress, { signal })
    .then((res) => res.file);

export function useCreateFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFileRequest,
    onSuccess: () => refreshDocumentArea(queryClient),
  });
}

/**
 * Several documents in one go (decision 182): each is a `createFileRequest` with the batch's id;
 * completing the batch mails each member once, and the document area loads again once.
 */
export function useCompleteUploadBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (batchId: string) =>
      api.post<UploadBatchResponse>(`/files/batches/${encodeURIComponent(batchId)}/complete`),
    onSettled: () => refreshDocumentArea(queryClient),
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

/** Makes a new current version from an older one; nothing is lost (decision 125). */
export function useRestoreVersion(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) =>
      api.post<VersionRestoreResponse>(`/files/${id}/versions/${version}/restore`).then((res) => res.file),
    onSuccess: async (file) => {
      queryClient.setQueryData(fileKeys.file(id), file);
      // The versions are under `files` too: they load again with the rest.
      await refreshDocumentArea(queryClient);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Versions' content (the current document's is in lib/document-content), with the bearer header

const versionPath = (id: number, version: number) => `/files/${id}/versions/${version}/download`;

/** One version's content in a new tab when the browser can show it safely, else saved. */
export async function viewFileVersion(id: number, version: Pick<FileVersion, 'version'>): Promise<void> {
  openBlobInNewTab(await api.download(`${versionPath(id, version.version)}?purpose=view`));
}

/** Saves one version as `title.format`, with that version's format. */
export async function downloadFileVersion(
  file: Pick<StoredFile, 'id' | 'title'>,
  version: Pick<FileVersion, 'version' | 'format'>,
): Promise<void> {
  const content = await api.download(versionPath(file.id, version.version));
  saveBlob(content.blob, fileNameOf({ title: file.title, format: version.format }));
}
