import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { EVENT_MESSAGES, type PortalEvent } from '@gremienportal/contracts/events';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useDeleteEvent } from '../events.api';

/**
 * Delete with confirmation (product.md P3). A failure sets `deleteError` for the page's banner
 * "Fehler beim Löschen eines Events" (product.md P12).
 */
export function useDeleteEventWithConfirmation(onDeleted?: (event: PortalEvent) => void) {
  const deleteEvent = useDeleteEvent();
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const confirmDelete = (event: PortalEvent) =>
    openConfirmDialog({
      title: 'Event löschen',
      message: (
        <Stack gap="xs">
          <Text>Soll das Event „{event.title}“ wirklich gelöscht werden?</Text>
          <Text size="sm" c="dimmed">
            {event.external ? EVENT_MESSAGES.deleteToTrashWithFile : EVENT_MESSAGES.deleteToTrash}
          </Text>
        </Stack>
      ),
      onConfirm: () => {
        setDeleteError(null);
        deleteEvent.mutate(event.id, {
          onSuccess: () => {
            notifications.show({ color: 'green', message: EVENT_MESSAGES.deleted });
            onDeleted?.(event);
          },
          onError: (error) => setDeleteError(errorMessage(error, '')),
        });
      },
    });

  return { confirmDelete, deleteError, clearDeleteError: () => setDeleteError(null) };
}
