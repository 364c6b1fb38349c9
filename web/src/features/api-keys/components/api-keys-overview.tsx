import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { showSuccessToast } from '../../../components/toasts';
import { PageSection } from '../../../components/page-section';
import { errorMessage } from '../../../lib/api-client';
import { apiKeysQueryOptions, useRevokeApiKey, type ApiKey } from '../api-keys.api';
import { isExpired, keyCount } from '../api-keys.rules';
import { ApiKeysTable } from './api-keys-table';

export const LIST_HEADING = 'Ausgestellte Schlüssel';
export const REVOKE_FAILED_MESSAGE = 'Der API-Schlüssel konnte nicht widerrufen werden.';

export const revokedText = (apiKey: Pick<ApiKey, 'name'>) => `API-Schlüssel „${apiKey.name}“ widerrufen.`;

/** "3 API-Schlüssel, davon 1 abgelaufen"; nothing for none (the table says so). */
function countText(apiKeys: readonly ApiKey[]): string {
  if (apiKeys.length === 0) return '';
  const expired = apiKeys.filter((apiKey) => isExpired(apiKey)).length;
  return expired > 0 ? `${keyCount(apiKeys.length)}, davon ${expired} abgelaufen` : keyCount(apiKeys.length);
}

/** The list of keys with "Widerrufen" (after asking) and its messages. */
export function ApiKeysOverview() {
  const list = useQuery(apiKeysQueryOptions());
  const revoke = useRevokeApiKey();
  const [busyId, setBusyId] = useState<number | null>(null);

  const handleRevoke = (apiKey: ApiKey) =>
    openConfirmDialog({
      title: 'API-Schlüssel widerrufen',
      message: (
        <Stack gap="xs">
          <Text style={{ overflowWrap: 'anywhere' }}>
            Soll der API-Schlüssel „{apiKey.name}“ wirklich widerrufen werden?
          </Text>
          <Text size="sm" c="dimmed">
            Systeme, die ihn verwenden, erhalten sofort keinen Zugriff mehr. Das lässt sich nicht rückgängig
            machen.
          </Text>
        </Stack>
      ),
      confirmLabel: 'Widerrufen',
      onConfirm: () => {
        setBusyId(apiKey.id);
        revoke.mutate(apiKey, {
          onSuccess: () => showSuccessToast(revokedText(apiKey)),
          // A 404: someone revoked it first (the list reloads either way); 403: no Super-Admin any more.
          onError: (error) => {
            const reason = errorMessage(error, '');
            notifications.show(
              reason && reason !== REVOKE_FAILED_MESSAGE
                ? { color: 'red', title: REVOKE_FAILED_MESSAGE, message: reason }
                : { color: 'red', message: REVOKE_FAILED_MESSAGE },
            );
          },
          onSettled: () => setBusyId(null),
        });
      },
    });

  return (
    <PageSection id="api-keys-list-heading" title={LIST_HEADING} framed={false}>
      {list.isPending ? (
        <LoadingState />
      ) : list.isError ? (
        <ErrorState detail={list.error.message} onRetry={() => void list.refetch()} />
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {countText(list.data)}
          </Text>
          <ApiKeysTable
            apiKeys={list.data}
            fetching={list.isFetching}
            actions={{ busyId, onRevoke: handleRevoke }}
          />
        </>
      )}
    </PageSection>
  );
}
