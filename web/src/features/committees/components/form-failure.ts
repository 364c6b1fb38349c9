import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../../../lib/api-client';
import { applyFieldErrors, type GeneralError } from '../../../lib/form-errors';

/**
 * What a committee form shows after the server refused: a 422's field messages under the fields
 * (the rest and the server's message above the buttons); any other refusal with the server's German
 * message under the form's fixed text. Returns the fields that got a message.
 */
export function formFailure<TValues extends FieldValues>(
  error: unknown,
  failureText: string,
  setError: UseFormSetError<TValues>,
  fields: readonly FieldPath<TValues>[],
): { general: GeneralError; fields: string[] } {
  const placed = applyFieldErrors(error, setError, fields);
  if (placed) {
    const errored = Object.keys(isApiError(error) ? (error.errors ?? {}) : {}).filter((field) =>
      (fields as readonly string[]).includes(field),
    );
    const messages = placed.unplaced.length > 0 ? placed.unplaced : [placed.message];
    return { general: { title: failureText, messages }, fields: errored };
  }
  const detail = isApiError(error) ? error.message : '';
  return {
    general:
      detail && detail !== failureText
        ? { title: failureText, messages: [detail] }
        : { messages: [failureText] },
    fields: [],
  };
}
