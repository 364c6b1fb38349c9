import { useEffect, useRef, useState } from 'react';
import { fileTitleField, type CreateFileBody, type StoredFile } from '@gremienportal/contracts/files';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { isApiError, type UploadProgress } from '../../../lib/api-client';
import { createFileRequest, useCompleteUploadBatch } from '../files.api';

/** Files sent at the same time: a second keeps the line busy while the server stores the first. */
const PARALLEL_UPLOADS = 2;

export type BatchRowStatus = 'waiting' | 'uploading' | 'done' | 'failed';

export interface BatchRow {
  key: string;
  file: File;
  title: string;
  titleError?: string;
  status: BatchRowStatus;
  progress: UploadProgress | null;
  /** Why the upload failed, in German. */
  error?: string;
  created?: StoredFile;
}

/** The file's name without its extension: "Protokoll März.pdf" → "Protokoll März". */
export function titleFromFileName(name: string): string {
  const dot = name.lastIndexOf('.');
  const stem = (dot > 0 ? name.slice(0, dot) : name).trim();
  return stem || name;
}

/**
 * A UUID v4 from `crypto.getRandomValues`, which, unlike `crypto.randomUUID`, also exists outside
 * secure contexts (a portal reached over plain http in the office network).
 */
export function newBatchId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The server's German words on one file, or the general text (product.md P12). */
function rowErrorOf(error: unknown): string {
  if (!isApiError(error)) return FILE_MESSAGES.createFailed;
  if (error.status === 422) {
    const fields = Object.values(error.errors ?? {}).flat();
    return fields.length > 0 ? fields.join(' ') : error.message;
  }
  if (error.status === 413 || error.kind === 'network' || error.kind === 'timeout') return error.message;
  return FILE_MESSAGES.createFailed;
}

const fileKey = (file: File) => `${file.name}\u0000${file.size}\u0000${file.lastModified}`;

/**
 * Several documents in one go (decision 182): the list of chosen files with their titles, and the
 * uploads with one batch id, two at a time, each with its own progress and result. The batch is
 * completed when every file is up, or on `finish` with the failed ones left out; a list left while
 * its batch is open is completed now, or by the server's quiet period if that call is lost.
 */
export function useBatchUpload() {
  const [rows, setRows] = useState<BatchRow[]>([]);
  const [completed, setCompleted] = useState(false);
  const batchId = useRef<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const complete = useCompleteUploadBatch();
  const { mutate: completeOnLeave } = complete;
  // What an unmount still has to complete.
  const pending = useRef<{ id: string | null; done: boolean; completed: boolean }>({
    id: null,
    done: false,
    completed: false,
  });

  useEffect(
    () => () => {
      abort.current?.abort();
      const left = pending.current;
      if (left.id && left.done && !left.completed) completeOnLeave(left.id);
    },
    [completeOnLeave],
  );

  const update = (key: string, change: Partial<BatchRow>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));

  /** Adds files to the list, each once; titles from their names. After a completion, a new list. */
  const addFiles = (files: readonly File[]) => {
    if (completed) {
      batchId.current = null;
      pending.current = { id: null, done: false, completed: false };
      setCompleted(false);
    }
    setRows((previous) => {
      const current = completed ? [] : previous;
      const known = new Set(current.map((row) => row.key));
      const added = files
        .filter((file) => !known.has(fileKey(file)))
        .map((file): BatchRow => ({
          key: fileKey(file),
          file,
          title: titleFromFileName(file.name),
          status: 'waiting',
          progress: null,
        }));
      return [...current, ...added];
    });
  };

  const removeRow = (key: string) => setRows((current) => current.filter((row) => row.key !== key));
  const setTitle = (key: string, title: string) => update(key, { title, titleError: undefined });
  const clear = () => {
    setRows([]);
    batchId.current = null;
    pending.current = { id: null, done: false, completed: false };
    setCompleted(false);
  };

  /** Checks every title with the contract's rule; false (and the messages under the titles) if one fails. */
  const checkTitles = (): boolean => {
    const checked = rows.map((row) => {
      if (row.status === 'done') return row;
      const parsed = fileTitleField.safeParse(row.title);
      return { ...row, titleError: parsed.success ? undefined : parsed.error.issues[0]?.message };
    });
    setRows(checked);
    return checked.every((row) => row.titleError === undefined);
  };

  async function finish(all: readonly BatchRow[]): Promise<StoredFile[]> {
    const id = batchId.current;
    if (id && pending.current.done) await complete.mutateAsync(id);
    pending.current.completed = true;
    setCompleted(true);
    return all.flatMap((row) => (row.created ? [row.created] : []));
  }

  /**
   * Uploads what is waiting or failed with the shared fields of `body`; completes the batch when
   * nothing failed. Returns the created documents then, or null while some failed.
   */
  async function send(body: CreateFileBody, current: readonly BatchRow[]): Promise<StoredFile[] | null> {
    batchId.current ??= newBatchId();
    pending.current.id = batchId.current;
    abort.current = new AbortController();
    const signal = abort.current.signal;
    const results = new Map(current.map((row) => [row.key, row]));
    const queue = current.filter((row) => row.status !== 'done');
    const uploadOne = async (row: BatchRow) => {
      update(row.key, { status: 'uploading', error: undefined, progress: { loaded: 0 } });
      try {
        const created = await createFileRequest({
          body: { ...body, title: fileTitleField.parse(row.title), batch_id: batchId.current! },
          file: row.file,
          onProgress: (progress) => update(row.key, { progress }),
          signal,
        });
        const done = { ...row, status: 'done' as const, progress: null, created };
        results.set(row.key, done);
        pending.current.done = true;
        update(row.key, done);
      } catch (error) {
        if (isApiError(error) && error.kind === 'aborted') return;
        const failed = { ...row, status: 'failed' as const, progress: null, error: rowErrorOf(error) };
        results.set(row.key, failed);
        update(row.key, failed);
      }
    };
    const worker = async () => {
      for (let row = queue.shift(); row && !signal.aborted; row = queue.shift()) await uploadOne(row);
    };
    await Promise.all(Array.from({ length: PARALLEL_UPLOADS }, worker));
    const all = current.map((row) => results.get(row.key)!);
    if (signal.aborted || all.some((row) => row.status !== 'done')) return null;
    return finish(all);
  }

  return {
    rows,
    completed,
    addFiles,
    removeRow,
    setTitle,
    clear,
    checkTitles,
    send: (body: CreateFileBody) => send(body, rows),
    /** Completes the batch without the failed files. */
    finish: () => finish(rows),
  };
}

export type BatchUpload = ReturnType<typeof useBatchUpload>;
