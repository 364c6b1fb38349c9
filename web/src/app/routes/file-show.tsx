import { useNavigate } from 'react-router';
import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FILE_MESSAGES } from '@gremienportal/contracts/files';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { FormSection } from '../../components/form-section';
import { PageTitle } from '../../components/page-title';
import { AdminAccessSection } from '../../features/audit/components/admin-access-section';
import { DeleteErrorBanner } from '../explorer/delete-error-banner';
import { FileDetails } from '../../features/files/components/file-details';
import { FileEditForm } from '../../features/files/components/file-edit-form';
import { useNewFolderModal } from '../../features/folders/components/new-folder-modal';
import { showSuccessToast } from '../../components/toasts';
import { useDeleteWithConfirmation } from '../explorer/use-delete-with-confirmation';
import { fileQueryOptions, useUpdateFile, type StoredFile } from '../../features/files/files.api';
import { uploadTargetsQueryOptions } from '../../features/folders/folders.api';
import { folderSearch } from '../../features/folders/folders.rules';
import { rolesQueryOptions } from '../../lib/roles';
import { isApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

/** The admins' edit form "Datei bearbeiten" on the detail page (product.md P3). */
function EditSection({ file }: { file: StoredFile }) {
  const navigate = useNavigate();
  const roles = useQuery(rolesQueryOptions());
  const targets = useQuery(uploadTargetsQueryOptions());
  const updateFile = useUpdateFile(file.id);
  const { openNewFolder, createdFolderId, modal: newFolderModal } = useNewFolderModal();

  return (
    <>
      <FormSection
        id="file-edit"
        title="Datei bearbeiten"
        description="Durch das Hochladen einer neuen Datei wird die bestehende Datei überschrieben."
      >
        {roles.isError || targets.isError ? (
          <ErrorState
            onRetry={() => {
              void roles.refetch();
              void targets.refetch();
            }}
          />
        ) : roles.isPending || targets.isPending ? (
          <LoadingState />
        ) : (
          <FileEditForm
            file={file}
            roles={roles.data}
            folderOptions={targets.data}
            failureMessage={FILE_MESSAGES.updateFailedPage}
            onNewFolder={openNewFolder}
            createdFolderId={createdFolderId}
            onSubmit={async (body, replacement, onProgress, signal) => {
              const saved = await updateFile.mutateAsync({ body, file: replacement, onProgress, signal });
              showSuccessToast(FILE_MESSAGES.updated);
              // product.md P4: after a file update go to /files, here opened at its folder.
              navigate(`/files${folderSearch(saved.folder_id)}`);
            }}
          />
        )}
      </FormSection>
      {newFolderModal}
    </>
  );
}

function FileShow({ id }: { id: number }) {
  const { isAdmin } = useAuth();
  const navigate = useNavigate();
  const file = useQuery(fileQueryOptions(id));
  const { confirmDeleteFile, deleting, deleteError, clearDeleteError } = useDeleteWithConfirmation({
    failure: 'banner',
    // product.md P4: after a delete go to /files, here opened at the folder it was in.
    onFileDeleted: (deleted) => navigate(`/files${folderSearch(deleted.folder_id)}`, { replace: true }),
  });

  // Hidden and missing files answer the same 404 (product.md P5): both show the 404 page.
  if (file.isError && isApiError(file.error) && file.error.status === 404) return <NotFoundPage />;
  const title = file.data?.title ?? 'Datei';

  return (
    <Stack gap="lg" maw={1100}>
      <PageTitle documentTitle={title}>{title}</PageTitle>
      <DeleteErrorBanner error={deleteError} onClose={clearDeleteError} />
      {file.isPending ? (
        <LoadingState />
      ) : file.isError ? (
        <ErrorState detail={file.error.message} onRetry={() => void file.refetch()} />
      ) : (
        <>
          <FileDetails file={file.data} isAdmin={isAdmin} onDelete={confirmDeleteFile} deleting={deleting} />
          {isAdmin ? (
            <>
              <EditSection key={file.data.updated_at} file={file.data} />
              <AdminAccessSection type="file" id={file.data.id} />
            </>
          ) : null}
        </>
      )}
    </Stack>
  );
}

/** /files/show/{id}: the file; admins also edit and delete it and see who opened it. */
export default function FileShowPage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <FileShow key={id} id={id} />;
}
