import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { TRASH_MESSAGES, type TrashRestoreResponse } from '@gremienportal/contracts/trash';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { showFailureToast, showSuccessToast } from '../../../components/toasts';
import { isApiError } from '../../../lib/api-client';
import {
  refreshTrash,
  useEmptyTrash,
  usePurgeTrashItem,
  useRestoreTrashItem,
  type TrashItem,
} from '../trash.api';
import { emptyQuestion, purgeQuestion, restoredText } from '../trash.rules';

export type Restored = TrashRestoreResponse['data'];

/**
 * Restore (straight away, or after "Zielordner wählen" when the former folder is gone), purge
 * and empty (after asking). A 409 means someone else was faster: its message, and a fresh list.
 */
export function useTrashActions() {
  const queryClient = useQueryClient();
  const restore = useRestoreTrashItem();
  const purge = usePurgeTrashItem();
  const empty = useEmptyTrash();
  const [busyId, setBusyId] = useState<number | null>(null);
  const [targetFor, setTargetFor] = useState<TrashItem | null>(null);
  const [targetError, setTargetError] = useState<string | null>(null);
  const [lastRestored, setLastRestored] = useState<Restored | null>(null);

  const fail = (fallback: string, error: unknown) => {
    if (isApiError(error) && error.status === 409) {
      notifications.show({ color: 'red', message: error.message || TRASH_MESSAGES.gone });
      void refreshTrash(queryClient);
      return true;
    }
    showFailureToast(fallback, error);
    return false;
  };

  const runRestore = (item: TrashItem, folderId?: number) => {
    setBusyId(item.id);
    setTargetError(null);
    restore.mutate(
      { item, folderId },
      {
        onSuccess: (restored) => {
          setTargetFor(null);
          setLastRestored(restored);
          showSuccessToast(restoredText(restored));
        },
        onError: (error) => {
          const folderError = isApiError(error) ? error.errors?.folder_id?.[0] : undefined;
          if (folderError) {
            // The former folder went away meanwhile, or the chosen one does not fit: ask (again).
            setTargetFor(item);
            setTargetError(folderId === undefined ? null : folderError);
            return;
          }
          if (fail(TRASH_MESSAGES.restoreFailed, error)) setTargetFor(null);
        },
        onSettled: () => setBusyId(null),
      },
    );
  };

  const handleRestore = (item: TrashItem) => {
    if (item.needs_target) {
      setTargetError(null);
      setTargetFor(item);
    } else runRestore(item);
  };

  const handlePurge = (item: TrashItem) =>
    openConfirmDialog({
      title: 'Endgültig löschen',
      message: purgeQuestion(item),
      confirmLabel: 'Endgültig löschen',
      onConfirm: () => {
        setBusyId(item.id);
        purge.mutate(item, {
          onSuccess: () => showSuccessToast(`${TRASH_MESSAGES.purged}: „${item.title}“`),
          onError: (error) => void fail(TRASH_MESSAGES.purgeFailed, error),
          onSettled: () => setBusyId(null),
        });
      },
    });

  const handleEmpty = (all: number) =>
    openConfirmDialog({
      title: 'Papierkorb leeren',
      message: emptyQuestion(all),
      confirmLabel: 'Papierkorb leeren',
      onConfirm: () =>
        empty.mutate(undefined, {
          onSuccess: () => showSuccessToast(TRASH_MESSAGES.emptied),
          onError: (error) => void fail(TRASH_MESSAGES.purgeFailed, error),
        }),
    });

  return {
    busyId,
    emptying: empty.isPending,
    handleRestore,
    handlePurge,
    handleEmpty,
    lastRestored,
    clearLastRestored: () => setLastRestored(null),
    target: {
      item: targetFor,
      busy: restore.isPending,
      error: targetError,
      onSubmit: (folderId: number) => targetFor && runRestore(targetFor, folderId),
      onClose: () => setTargetFor(null),
    },
  };
}
