import { lazy, Suspense, useState } from 'react';
import { Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Folder } from '@gremienportal/contracts/folders';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { uploadTargetsQueryOptions } from '../folders.api';

const FolderCreateForm = lazy(() =>
  import('./folder-create-form').then((module) => ({ default: module.FolderCreateForm })),
);

function NewFolderBody({ initialParentId, onClose, onCreated }: Omit<NewFolderModalProps, 'opened'>) {
  // Folders go where files may go: anywhere but the root (product.md P4).
  const targets = useQuery(uploadTargetsQueryOptions());
  if (targets.isError)
    return <ErrorState detail={targets.error.message} onRetry={() => void targets.refetch()} />;
  if (targets.isPending) return <LoadingState />;
  return (
    <FolderCreateForm
      parent={{ kind: 'choose', options: targets.data, initialId: initialParentId }}
      onCancel={onClose}
      onCreated={(folder) => {
        onClose();
        onCreated?.(folder);
      }}
    />
  );
}

interface NewFolderModalProps {
  opened: boolean;
  onClose: () => void;
  /** Preselected parent, e.g. the folder chosen in the upload form. */
  initialParentId?: number;
  /** Receives the new folder; the upload forms make it their choice. */
  onCreated?: (folder: Folder) => void;
}

/**
 * "Neuer Ordner" outside the explorer (/old, /files/new, /files/update): there is no active folder,
 * so the admin chooses where the folder is created.
 */
export function NewFolderModal({ opened, ...props }: NewFolderModalProps) {
  return (
    <Modal opened={opened} onClose={props.onClose} title="Neuer Ordner" centered>
      {opened ? (
        <Stack gap="md">
          <Text>Der Ordner wird im gewählten Ordner angelegt.</Text>
          <Suspense fallback={<LoadingState />}>
            <NewFolderBody {...props} />
          </Suspense>
        </Stack>
      ) : null}
    </Modal>
  );
}

/**
 * The "Neuer Ordner" modal beside a file form's folder choice: it opens at the folder chosen so far,
 * and the folder it created last becomes the form's choice.
 */
export function useNewFolderModal() {
  const [newFolder, setNewFolder] = useState<{ parentId?: number } | null>(null);
  const [createdFolderId, setCreatedFolderId] = useState<number | undefined>(undefined);
  const modal = (
    <NewFolderModal
      opened={newFolder !== null}
      initialParentId={newFolder?.parentId}
      onClose={() => setNewFolder(null)}
      onCreated={(folder) => setCreatedFolderId(folder.id)}
    />
  );
  return {
    openNewFolder: (parentId: number | undefined) => setNewFolder({ parentId }),
    createdFolderId,
    modal,
  };
}
