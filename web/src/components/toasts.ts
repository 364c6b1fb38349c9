import { notifications } from '@mantine/notifications';
import { TWO_FACTOR_SETUP_REQUIRED } from '@gremienportal/contracts/rules';
import { isApiError } from '../lib/api-client';

/** Toasts of the document area (product.md P12): green on success, red with the fixed text on failure. */
export function showSuccessToast(message: string): void {
  notifications.show({ color: 'green', message });
}

/**
 * The fixed failure text; a 422's reason from the server (a protected folder, a duplicate name)
 * goes under it, anything else would only repeat "Anfrage fehlgeschlagen".
 */
export function showFailureToast(message: string, error?: unknown): void {
  // Closing a modal during an upload aborts it on purpose.
  if (isApiError(error) && error.kind === 'aborted') return;
  // A second factor still to set up: the gate already explains it and leads to the account page.
  if (isApiError(error) && error.code === TWO_FACTOR_SETUP_REQUIRED) return;
  const detail = isApiError(error) && error.status === 422 ? error.message : '';
  notifications.show(
    detail && detail !== message
      ? { color: 'red', title: message, message: detail }
      : { color: 'red', message },
  );
}
