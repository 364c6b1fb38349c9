import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import type { Folder } from '@gremienportal/contracts/folders';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { openConfirmDialog } from '../../components/confirm-dialog';
import { errorMessage } from '../../lib/api-client';
import { folderQueryOptions, useDeleteFolder } from '../../features/folders/folders.api';
import { useDeleteFile, type StoredFile } from '../../features/files/files.api';
import { showFailureToast, showSuccessToast } from '../../components/toasts';

/**
 * Where a failure is reported: the explorer shows its toasts (product.md P12 "Explorer toasts"), the
 * file and folder pages a banner "Fehler beim Löschen einer Datei".
 */
export type DeleteFailureMode = 'toast' | 'banner';

interface Options {
  failure: DeleteFailureMode;
  onFileDeleted?: (file: StoredFile) => void;
  /** Receives the deleted folder, whose `parent_id` is where the view moves to (product.md P4). */
  onFolderDeleted?: (folder: Folder) => void;
}

/** Deleting asks first; for a folder the question says how much it contains (product.md P6.5). */
export function useDeleteWithConfirmation({ failure, onFileDeleted, onFolderDeleted }: Options) {
  const queryClient = useQueryClient();
  const deleteFile = useDeleteFile();
  const deleteFolder = useDeleteFolder();
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);

  const fail = (toastText: string, error: unknown) => {
    if (failure === 'toast') showFailureToast(toastText, error);
    else setDeleteError(errorMessage(error, ''));
  };

  const confirmDeleteFile = (file: StoredFile) =>
    openConfirmDialog({
      title: 'Datei löschen',
      message: (
        <Stack gap="xs">
          <Text style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
            Soll die Datei „{file.title}.{file.format}“ wirklich gelöscht werden?
          </Text>
          <Text size="sm" c="dimmed">
            {FILE_MESSAGES.deleteToTrash}
          </Text>
        </Stack>
      ),
      onConfirm: () => {
        setDeleteError(null);
        deleteFile.mutate(file.id, {
          onSuccess: () => {
            showSuccessToast(FILE_MESSAGES.deleted);
            onFileDeleted?.(file);
          },
          onError: (error) => fail(FILE_MESSAGES.deleteFailed, error),
        });
      },
    });

  const confirmDeleteFolder = async (folderId: number) => {
    setDeleteError(null);
    setPreparing(true);
    let folder;
    try {
      // Always fresh: the counts must match what is deleted now.
      folder = await queryClient.fetchQuery({ ...folderQueryOptions(folderId), staleTime: 0 });
    } catch (error) {
      fail(FOLDER_MESSAGES.loadFailed, error);
      return;
    } finally {
      setPreparing(false);
    }
    openConfirmDialog({
      title: 'Ordner löschen',
      message: (
        <Stack gap="xs">
          <Text style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
            Soll der Ordner „{folder.breadcrumb}“ wirklich gelöscht werden?
          </Text>
          <Text>{FOLDER_MESSAGES.trashConfirm(folder.contents.folders, folder.contents.files)}</Text>
          <Text size="sm" c="dimmed">
            {FOLDER_MESSAGES.deleteToTrash}
          </Text>
        </Stack>
      ),
      onConfirm: () => {
        deleteFolder.mutate(folder.id, {
          onSuccess: () => {
            showSuccessToast(FOLDER_MESSAGES.deleted);
            onFolderDeleted?.(folder);
          },
          onError: (error) => fail(FOLDER_MESSAGES.deleteFailed, error),
        });
      },
    });
  };

  return {
    confirmDeleteFile,
    confirmDeleteFolder,
    deleting: preparing || deleteFile.isPending || deleteFolder.isPending,
    deleteError,
    clearDeleteError: () => setDeleteError(null),
  };
}
