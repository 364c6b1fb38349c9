import { useEffect, useRef, useState } from 'react';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { errorMessage, isApiError, type UploadProgress } from '../../../lib/api-client';
import { applyFieldErrors, type GeneralError } from '../../../lib/form-errors';

const FILE_FIELDS = ['file', 'data'];

export type SendFile = (onProgress: (progress: UploadProgress) => void, signal: AbortSignal) => Promise<void>;

/**
 * The sending side the upload and the edit form share: progress, the drop zone's error, the
 * general error and the abort when the form closes (a running upload stops with it).
 */
export function useFileSubmission(failureMessage: string) {
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const [generalError, setGeneralError] = useState<GeneralError | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  /** Sends; a failure goes under the fields, to the drop zone or into the general alert. */
  const submit = async <TValues extends FieldValues>(
    send: SendFile,
    setError: UseFormSetError<TValues>,
    fields: readonly FieldPath<TValues>[],
  ) => {
    setFileError(undefined);
    abort.current = new AbortController();
    try {
      await send(setProgress, abort.current.signal);
    } catch (error) {
      if (isApiError(error) && error.kind === 'aborted') return;
      const placed = applyFieldErrors(error, setError, fields, { fileFields: FILE_FIELDS });
      if (placed) {
        if (placed.fileError) setFileError(placed.fileError);
        setGeneralError({
          title: failureMessage,
          messages: placed.unplaced.length > 0 ? placed.unplaced : [placed.message],
        });
      } else if (isApiError(error) && error.status === 413) {
        setFileError(error.message);
        setGeneralError({ messages: [failureMessage] });
      } else {
        // product.md P12: in the modals the server's 422 message, else the generic text.
        const detail = isApiError(error) && error.status === 422 ? errorMessage(error, '') : '';
        setGeneralError(
          detail ? { title: failureMessage, messages: [detail] } : { messages: [failureMessage] },
        );
      }
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };

  return { fileError, setFileError, generalError, setGeneralError, progress, submit };
}
