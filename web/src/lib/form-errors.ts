import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from './api-client';

/**
 * The one place that turns a 422 answer (`errors: { field: [message] }`) into form state: the
 * messages go under the form's fields, the rest to its general error alert.
 */

/**
 * Puts the field errors of a 422 answer under the matching fields. Returns the messages that
 * belong to no field of the form, for the form's general error alert.
 */
export function applyServerErrors<TValues extends FieldValues>(
  setError: UseFormSetError<TValues>,
  error: unknown,
  fields?: readonly FieldPath<TValues>[],
): string[] {
  if (!isApiError(error) || !error.errors) return [];
  const unplaced: string[] = [];
  let first = true;
  for (const [field, messages] of Object.entries(error.errors)) {
    if (fields && !(fields as readonly string[]).includes(field)) {
      unplaced.push(...messages);
      continue;
    }
    setError(
      field as FieldPath<TValues>,
      { type: 'server', message: messages.join(' ') },
      { shouldFocus: first },
    );
    first = false;
  }
  return unplaced;
}

/** What `applyFieldErrors` placed, and what is left for the form to show elsewhere. */
export interface PlacedFieldErrors {
  /** Messages for fields the form does not show, for its general error alert. */
  unplaced: string[];
  /** The messages of the file fields (shown at the drop zone, not by react-hook-form), joined. */
  fileError?: string;
  /** The server's general message. */
  message: string;
}

/**
 * For a 422 answer with field errors: puts them under `fields`, keeps the `fileFields` messages
 * apart and returns what is left; `null` for any other error, which the form handles itself.
 */
export function applyFieldErrors<TValues extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<TValues>,
  fields: readonly FieldPath<TValues>[],
  options: { fileFields?: readonly string[] } = {},
): PlacedFieldErrors | null {
  if (!isApiError(error) || error.status !== 422 || !error.errors) return null;
  const fileMessages = (options.fileFields ?? []).flatMap((field) => error.errors?.[field] ?? []);
  const unplaced = applyServerErrors(setError, error, fields).filter(
    (message) => !fileMessages.includes(message),
  );
  return {
    unplaced,
    fileError: fileMessages.length > 0 ? fileMessages.join(' ') : undefined,
    message: error.message,
  };
}

export interface GeneralError {
  title?: string;
  messages: string[];
}

/**
 * product.md P12 for the modals and pages of the document area: a 422 puts its field messages under
 * the fields and shows the server's message; anything else shows the fixed text.
 */
export function generalErrorOf<TValues extends FieldValues>(
  error: unknown,
  failureText: string,
  setError: UseFormSetError<TValues>,
  fields: readonly FieldPath<TValues>[],
): GeneralError {
  if (isApiError(error) && error.status === 422) {
    const unplaced = applyFieldErrors(error, setError, fields)?.unplaced ?? [];
    const messages = unplaced.length > 0 ? unplaced : [error.message];
    return { title: failureText, messages };
  }
  return { messages: [failureText] };
}
