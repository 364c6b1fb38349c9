import { Button } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { UPLOAD_BATCH_MESSAGES } from '@gremienportal/contracts/file-messages';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { useCreateFile, useUpdateFile, type StoredFile } from '../../features/files/files.api';
import { uploadTargetsQueryOptions } from '../../features/folders/folders.api';
import type { ActiveFolder, ExplorerModalsProps, ExplorerModalState } from './explorer-modal.types';
import { FileEditForm } from '../../features/files/components/file-edit-form';
import { FileUploadForm } from '../../features/files/components/file-upload-form';
import { FolderCreateForm } from '../../features/folders/components/folder-create-form';
import { FolderEditForm } from '../../features/folders/components/folder-edit-form';
import { PeriodForm } from '../../features/folders/components/period-form';
import { showFailureToast, showSuccessToast } from '../../components/toasts';
import { rolesQueryOptions } from '../../lib/roles';

type BodyProps = Omit<ExplorerModalsProps, 'modal'> & { modal: ExplorerModalState };

function CancelButton({ onClose }: { onClose: () => void }) {
  return (
    <Button variant="default" onClick={onClose}>
      Abbrechen
    </Button>
  );
}

function UploadBody({ folder, onClose }: { folder: ActiveFolder; onClose: () => void }) {
  const roles = useQuery(rolesQueryOptions());
  const createFile = useCreateFile();
  if (roles.isError) return <ErrorState detail={roles.error.message} onRetry={() => void roles.refetch()} />;
  if (roles.isPending) return <LoadingState />;
  return (
    <FileUploadForm
      roles={roles.data}
      target={{ kind: 'fixed', id: folder.id, breadcrumb: folder.breadcrumb, roles: folder.roles }}
      failureMessage={FILE_MESSAGES.createFailed}
      secondaryAction={<CancelButton onClose={onClose} />}
      onSubmit={async (body, file, onProgress, signal) => {
        try {
          await createFile.mutateAsync({ body, file, onProgress, signal });
        } catch (error) {
          showFailureToast(FILE_MESSAGES.createFailed, error);
          throw error;
        }
        showSuccessToast(FILE_MESSAGES.created);
        onClose();
      }}
      onBatchUploaded={(files) => {
        showSuccessToast(UPLOAD_BATCH_MESSAGES.allSucceeded(files.length));
        onClose();
      }}
    />
  );
}

function EditFileBody({ file, onClose }: { file: StoredFile; onClose: () => void }) {
  const roles = useQuery(rolesQueryOptions());
  const targets = useQuery(uploadTargetsQueryOptions());
  const updateFile = useUpdateFile(file.id);
  if (roles.isError || targets.isError) {
    return (
      <ErrorState
        onRetry={() => {
          void roles.refetch();
          void targets.refetch();
        }}
      />
    );
  }
  if (roles.isPending || targets.isPending) return <LoadingState />;
  return (
    <FileEditForm
      file={file}
      roles={roles.data}
      folderOptions={targets.data}
      failureMessage={FILE_MESSAGES.updateFailed}
      secondaryAction={<CancelButton onClose={onClose} />}
      onSubmit={async (body, replacement, onProgress, signal) => {
        try {
          await updateFile.mutateAsync({ body, file: replacement, onProgress, signal });
        } catch (error) {
          showFailureToast(FILE_MESSAGES.updateFailed, error);
          throw error;
        }
        showSuccessToast(FILE_MESSAGES.updated);
        onClose();
      }}
    />
  );
}

/** The form inside an explorer modal; loaded on first use. */
export function ExplorerModalBody({
  modal,
  folder,
  onClose,
  onFolderCreated,
  onFolderSaved,
  onPeriodCreated,
}: BodyProps) {
  switch (modal.kind) {
    case 'create-folder':
      return (
        <FolderCreateForm
          parent={{ kind: 'fixed', id: folder.id }}
          onCancel={onClose}
          onCreated={(created) => {
            onClose();
            onFolderCreated?.(created);
          }}
        />
      );
    case 'edit-folder':
      return (
        <FolderEditForm
          folder={folder}
          onCancel={onClose}
          onSaved={(saved) => {
            onClose();
            onFolderSaved?.(saved);
          }}
        />
      );
    case 'upload':
      return <UploadBody folder={folder} onClose={onClose} />;
    case 'edit-file':
      return <EditFileBody file={modal.file} onClose={onClose} />;
    case 'period':
      return (
        <PeriodForm
          folderId={folder.id}
          onCancel={onClose}
          onCreated={(created) => {
            onClose();
            onPeriodCreated?.(created);
          }}
        />
      );
  }
}
