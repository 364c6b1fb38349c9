import { useState } from 'react';
import { downloadStoredFile, viewStoredFile, type StoredFile } from '../files.api';

/**
 * "Ansehen" and "Herunterladen" of a file, with which of the two is running. The content is
 * fetched with the bearer header; a failed download shows no message (product.md P12).
 */
export function useOpenFile(file: StoredFile | null) {
  const [busy, setBusy] = useState<'view' | 'download' | null>(null);
  const run = async (kind: 'view' | 'download') => {
    if (!file) return;
    setBusy(kind);
    try {
      await (kind === 'view' ? viewStoredFile(file) : downloadStoredFile(file));
    } catch {
      // product.md P12: a failed download shows no message.
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}
