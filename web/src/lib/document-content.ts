import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { openBlobInNewTab, saveBlob } from './saved-files';
import { refreshDocumentArea } from './document-area';

/**
 * A document's content, fetched with the bearer header and never with a token in the address
 * (product.md P6.7): the file dialog, the file page, the explorer's row menu and the agenda of an
 * event open and save documents the same way.
 */

/** What opening or saving a document needs: its download key, and its name for saving. */
export interface DocumentRef {
  /** Download key: `GET /api/v1/download/{external}`. */
  external: string;
  title: string;
  format: string;
  /** Decision 131: whether it is new for the member; opening it makes it read. */
  new?: boolean;
}

/** Documents opened or saved on this page since it loaded, by download key (Kenntnisnahme). */
const opened = new Set<string>();

const downloadPath = (file: Pick<DocumentRef, 'external'>) =>
  `/download/${encodeURIComponent(file.external)}`;

/** Shows the document in a new tab when the browser can do so safely, else saves it. */
export async function viewDocument(file: Pick<DocumentRef, 'external'>): Promise<void> {
  openBlobInNewTab(await api.download(`${downloadPath(file)}?purpose=view`));
}

/** Saves the document as `title.format` (product.md P3). */
export async function downloadDocument(file: DocumentRef): Promise<void> {
  const content = await api.download(downloadPath(file));
  saveBlob(content.blob, fileNameOf(file));
}

/** `title.format`, without characters no file system accepts. */
export const fileNameOf = (file: Pick<DocumentRef, 'title' | 'format'>) =>
  // eslint-disable-next-line no-control-regex
  `${file.title}.${file.format}`.replace(/[\u0000-\u001f\u007f/\\]/g, '_');

/**
 * "Ansehen" and "Herunterladen" of a document, with which of the two is running. A failed
 * download shows no message (product.md P12).
 */
export function useOpenDocument(file: DocumentRef | null) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'view' | 'download' | null>(null);
  const run = async (kind: 'view' | 'download') => {
    if (!file) return;
    setBusy(kind);
    try {
      await (kind === 'view' ? viewDocument(file) : downloadDocument(file));
      // Read on the render that `finally` causes.
      opened.add(file.external);
      // Decision 131: the server now counts it as read; its "Neu" badge and counts go away.
      if (file.new !== false) void refreshDocumentArea(queryClient);
    } catch {
      // product.md P12: a failed download shows no message.
    } finally {
      setBusy(null);
    }
  };
  /** Whether the member opened or saved it here: a Kenntnisnahme needs that first. */
  return { busy, run, opened: file !== null && opened.has(file.external) };
}
