import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { Minutes, MinutesRecipients } from '@gremienportal/contracts/meetings';
import { api, type UploadProgress } from '../../lib/api-client';
import { openBlobInNewTab, saveBlob } from '../../lib/saved-files';
import { eventKeys } from '../../lib/query-client';

export interface DownloadProgress {
  /** Bytes received so far. */
  received: number;
  /** The whole size, when the server declared it. */
  total?: number;
}

/** Reads a body chunk by chunk, reporting the bytes received so far. */
export async function readWithProgress(
  response: Response,
  onProgress: (progress: DownloadProgress) => void,
): Promise<Blob> {
  if (!response.body) return response.blob();
  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  onProgress({ received, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ received, total });
  }
  return new Blob(chunks);
}

/**
 * The Sitzungsmappe: one PDF built for the signed-in member, fetched with the bearer header and
 * saved. It may take seconds; `onProgress` reports the bytes as they arrive.
 */
export async function downloadMeetingBook(
  event: Pick<PortalEvent, 'id'>,
  onProgress: (progress: DownloadProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const file = await api.download(`/events/${event.id}/book.pdf`, {
    signal,
    readBody: (response) => readWithProgress(response, onProgress),
  });
  saveBlob(file.blob, file.filename);
}

const minutesPath = (minutes: Pick<Minutes, 'external'>) =>
  `/minutes/${encodeURIComponent(minutes.external)}`;

/** Shows the Protokoll in a new tab when the browser can do so safely (PDF), else saves it. */
export async function viewMinutes(minutes: Pick<Minutes, 'external'>): Promise<void> {
  openBlobInNewTab(await api.download(minutesPath(minutes)));
}

/** Saves the Protokoll under the name the server gives it. */
export async function downloadMinutes(minutes: Pick<Minutes, 'external'>): Promise<void> {
  const file = await api.download(minutesPath(minutes));
  saveBlob(file.blob, file.filename);
}

/** After the Protokoll changed: the event (which carries it) loads again, on its page and in the list. */
function useRefreshEvent(eventId: number) {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: eventKeys.detail(eventId) }),
      queryClient.invalidateQueries({ queryKey: eventKeys.list() }),
    ]);
  };
}

interface UploadMinutesVariables {
  file: File;
  onProgress?: (progress: UploadProgress) => void;
  /** Who hears of the first Protokoll (decision 181); the server's default is "zugesagt". */
  recipients?: MinutesRecipients;
  /** The meeting has not begun: the office confirmed publishing anyway. */
  confirmFuture?: boolean;
}

/** "Protokoll hochladen" / "ersetzen" (admins): multipart part `file`, with the upload's progress. */
export function useUploadMinutes(eventId: number) {
  const refresh = useRefreshEvent(eventId);
  return useMutation({
    mutationFn: ({ file, onProgress, recipients, confirmFuture }: UploadMinutesVariables) => {
      const data = new FormData();
      if (recipients) data.append('recipients', recipients);
      if (confirmFuture) data.append('confirm_future', 'true');
      data.append('file', file, file.name);
      return api.upload<unknown>('POST', `/events/${eventId}/minutes`, data, onProgress);
    },
    onSuccess: refresh,
  });
}

/** "Protokoll entfernen" (admins). */
export function useRemoveMinutes(eventId: number) {
  const refresh = useRefreshEvent(eventId);
  return useMutation({
    mutationFn: () => api.delete(`/events/${eventId}/minutes`),
    onSuccess: refresh,
  });
}
