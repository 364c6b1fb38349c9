import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { UPLOAD_BATCH_MESSAGES } from '@gremienportal/contracts/file-messages';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { FileUploadForm } from '../../features/files/components/file-upload-form';
import { useNewFolderModal } from '../../features/folders/components/new-folder-modal';
import { showSuccessToast } from '../../components/toasts';
import { foldersQueryOptions, uploadTargetsQueryOptions } from '../../features/folders/folders.api';
import { useCreateFile } from '../../features/files/files.api';
import { folderSearch } from '../../features/folders/folders.rules';
import { rolesQueryOptions } from '../../lib/roles';
import { parseId } from '../../lib/route-params';

/** /files/new: "Datei hochladen" with folder choice and "Neuer Ordner" (product.md P3). */
export default function FileNewPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const initialFolder = parseId(searchParams.get('folder') ?? undefined) ?? undefined;
  const roles = useQuery(rolesQueryOptions());
  const targets = useQuery(uploadTargetsQueryOptions());
  const folders = useQuery(foldersQueryOptions());
  const createFile = useCreateFile();
  const { openNewFolder, createdFolderId, modal: newFolderModal } = useNewFolderModal();

  const failed = roles.isError || targets.isError || folders.isError;
  const pending = roles.isPending || targets.isPending || folders.isPending;

  return (
    <Stack gap="lg" maw={860}>
      <PageTitle>Datei hochladen</PageTitle>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        {failed ? (
          <ErrorState
            onRetry={() => {
              void roles.refetch();
              void targets.refetch();
              void folders.refetch();
            }}
          />
        ) : pending ? (
          <LoadingState />
        ) : (
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              Die Datei ist für die gewählten Rollen sichtbar. Unter „Benachrichtigung an“ gewählte Rollen
              erhalten eine E-Mail.
            </Text>
            <FileUploadForm
              roles={roles.data}
              target={{
                kind: 'choose',
                options: targets.data,
                rolesOf: (id) => folders.data.find((folder) => folder.id === id)?.roles ?? [],
                initialId: targets.data.some((target) => target.id === initialFolder)
                  ? initialFolder
                  : undefined,
                onNewFolder: openNewFolder,
                createdId: createdFolderId,
              }}
              failureMessage={FILE_MESSAGES.createFailedPage}
              secondaryAction={
                <Button variant="default" component={Link} to="/files">
                  Abbrechen
                </Button>
              }
              onSubmit={async (body, file, onProgress, signal) => {
                const created = await createFile.mutateAsync({ body, file, onProgress, signal });
                showSuccessToast(FILE_MESSAGES.created);
                // product.md P4: after creating a file go to /files, here opened at its folder.
                navigate(`/files${folderSearch(created.folder_id)}`);
              }}
              onBatchUploaded={(files) => {
                showSuccessToast(UPLOAD_BATCH_MESSAGES.allSucceeded(files.length));
                navigate(`/files${files[0] ? folderSearch(files[0].folder_id) : ''}`);
              }}
            />
          </Stack>
        )}
      </Paper>
      {newFolderModal}
    </Stack>
  );
}
