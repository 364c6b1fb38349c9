import { Link, useNavigate } from 'react-router';
import { Button, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { FileEditForm } from '../../features/files/components/file-edit-form';
import { useNewFolderModal } from '../../features/folders/components/new-folder-modal';
import { showSuccessToast } from '../../components/toasts';
import { fileQueryOptions, useUpdateFile } from '../../features/files/files.api';
import { uploadTargetsQueryOptions } from '../../features/folders/folders.api';
import { folderSearch } from '../../features/folders/folders.rules';
import { rolesQueryOptions } from '../../lib/roles';
import { isApiError } from '../../lib/api-client';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';
import { REPLACE_KEEPS_VERSION } from '../../features/files/files.rules';
import { ArchivedNote } from '../../components/archive-badge';

function FileUpdate({ id }: { id: number }) {
  const navigate = useNavigate();
  const file = useQuery(fileQueryOptions(id));
  const roles = useQuery(rolesQueryOptions());
  const targets = useQuery(uploadTargetsQueryOptions());
  const updateFile = useUpdateFile(id);
  const { openNewFolder, createdFolderId, modal: newFolderModal } = useNewFolderModal();

  if (file.isError && isApiError(file.error) && file.error.status === 404) return <NotFoundPage />;

  return (
    <Stack gap="lg" maw={860}>
      <PageTitle documentTitle="Datei bearbeiten">
        {file.data ? `Datei bearbeiten: ${file.data.title}` : 'Datei bearbeiten'}
      </PageTitle>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        {file.isError || roles.isError || targets.isError ? (
          <ErrorState
            onRetry={() => {
              void file.refetch();
              void roles.refetch();
              void targets.refetch();
            }}
          />
        ) : file.isPending || roles.isPending || targets.isPending ? (
          <LoadingState />
        ) : file.data.archived ? (
          // Decision 189: a document in an archived folder is not replaced, renamed or moved.
          <ArchivedNote />
        ) : (
          <Stack gap="md">
            <Text>Durch das Hochladen einer neuen Datei wird die bestehende Datei überschrieben.</Text>
            <Text size="sm" c="dimmed">
              {REPLACE_KEEPS_VERSION}
            </Text>
            <FileEditForm
              file={file.data}
              roles={roles.data}
              folderOptions={targets.data}
              failureMessage={FILE_MESSAGES.updateFailedPage}
              onNewFolder={openNewFolder}
              createdFolderId={createdFolderId}
              secondaryAction={
                <Button variant="default" component={Link} to={`/files/show/${id}`}>
                  Abbrechen
                </Button>
              }
              onSubmit={async (body, replacement, onProgress, signal) => {
                const saved = await updateFile.mutateAsync({ body, file: replacement, onProgress, signal });
                showSuccessToast(FILE_MESSAGES.updated);
                // product.md P4: after a file update go to /files, here opened at its folder.
                navigate(`/files${folderSearch(saved.folder_id)}`);
              }}
            />
          </Stack>
        )}
      </Paper>
      {newFolderModal}
    </Stack>
  );
}

/** /files/update/{id}: full edit with name, roles, folder, "Neuer Ordner" and replacement (product.md P3). */
export default function FileUpdatePage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <FileUpdate key={id} id={id} />;
}
