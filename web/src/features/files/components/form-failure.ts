import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/forms';

export interface GeneralError {
  title?: string;
  messages: string[];
}

/**
 * Spec § 8 for the modals and pages of the document area: a 422 puts its field messages under
 * the fields and shows the server's message; anything else shows the fixed text.
 */
export function generalErrorOf<TValues extends FieldValues>(
  error: unknown,
  failureText: string,
  setError: UseFormSetError<TValues>,
  fields: readonly FieldPath<TValues>[],
): GeneralError {
  if (isApiError(error) && error.status === 422) {
    const unplaced = applyServerErrors(setError, error, fields);
    const messages = unplaced.length > 0 ? unplaced : [error.message];
    return { title: failureText, messages };
  }
  return { messages: [failureText] };
}
