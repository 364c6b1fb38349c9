import { PathText } from '../../components/path-text';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconFolderCog, IconFolderOpen, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ArchiveBadge } from '../../components/archive-badge';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { DeleteErrorBanner } from '../explorer/delete-error-banner';
import { ExplorerGrid } from '../explorer/explorer-grid';
import { FileDialog } from '../../features/files/components/file-dialog';
import { useDeleteWithConfirmation } from '../explorer/use-delete-with-confirmation';
import { folderItemsQueryOptions, folderQueryOptions } from '../../features/folders/folders.api';
import type { StoredFile } from '../../features/files/files.api';
import { canChangeFolder, canCreateIn, folderSearch } from '../../features/folders/folders.rules';
import touch from '../explorer/touch.module.css';
import { isApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

function FolderShow({ id }: { id: number }) {
  const { isAdmin } = useAuth();
  const navigate = useNavigate();
  const folder = useQuery(folderQueryOptions(id));
  const items = useQuery(folderItemsQueryOptions(id));
  const [selectedFile, setSelectedFile] = useState<StoredFile | null>(null);
  const { confirmDeleteFile, deleteError, clearDeleteError } = useDeleteWithConfirmation({
    failure: 'banner',
  });

  const notFound = [folder.error, items.error].some((error) => isApiError(error) && error.status === 404);
  if (notFound) return <NotFoundPage />;

  const empty = items.data?.length === 0;
  const name = folder.data ? (folder.data.parent === null ? 'Hauptordner' : folder.data.title) : '';
  const heading =
    !folder.data || !items.data ? 'Ordner' : empty ? 'Ordner leer' : `Dateien im Ordner: ${name}`;
  // Decision 189: nothing is uploaded into an archived folder.
  const creatable = canCreateIn(id) && folder.data?.archived !== true;
  const changeable = canChangeFolder(id);

  return (
    <Stack gap="lg" maw={1100}>
      <PageTitle documentTitle={heading}>{heading}</PageTitle>
      <DeleteErrorBanner error={deleteError} onClose={clearDeleteError} />
      {folder.isPending || items.isPending ? (
        <LoadingState />
      ) : folder.isError || items.isError ? (
        <ErrorState
          onRetry={() => {
            void folder.refetch();
            void items.refetch();
          }}
        />
      ) : (
        <>
          <Group justify="space-between" gap="sm" align="flex-start">
            <Stack gap={4} style={{ flex: '1 1 16rem', minWidth: 0 }}>
              <Text style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
                Ordner:{' '}
                <strong>
                  <PathText text={folder.data.breadcrumb} />
                </strong>
                {folder.data.archived ? (
                  <>
                    {' '}
                    <ArchiveBadge />
                  </>
                ) : null}
              </Text>
              <Group gap="md">
                {folder.data.parent ? (
                  <Anchor
                    component={Link}
                    to={`/folders/show/${folder.data.parent.id}`}
                    size="sm"
                    className={touch.link}
                  >
                    <IconArrowLeft size={16} aria-hidden />
                    Übergeordneter Ordner
                  </Anchor>
                ) : null}
                <Anchor component={Link} to={`/files${folderSearch(id)}`} size="sm" className={touch.link}>
                  <IconFolderOpen size={16} aria-hidden />
                  Im Dateibereich öffnen
                </Anchor>
              </Group>
            </Stack>
            {/* Decision 124: only what applies; the root and the protected folders simply lack it. */}
            {isAdmin && (creatable || changeable) ? (
              <Group gap="xs">
                {creatable ? (
                  <Button
                    size="sm"
                    leftSection={<IconUpload size={18} aria-hidden />}
                    component={Link}
                    to={`/files/new?folder=${id}`}
                  >
                    Datei hochladen
                  </Button>
                ) : null}
                {changeable ? (
                  <Button
                    size="sm"
                    variant="default"
                    leftSection={<IconFolderCog size={18} aria-hidden />}
                    component={Link}
                    to={`/folders/update/${id}`}
                  >
                    Ordner bearbeiten
                  </Button>
                ) : null}
              </Group>
            ) : null}
          </Group>
          {empty ? (
            <Paper withBorder radius="md" p="lg">
              <Text c="dimmed">
                In diesem Ordner liegen keine Ordner und keine Dateien, die Sie sehen dürfen.
              </Text>
            </Paper>
          ) : (
            <ExplorerGrid
              items={items.data}
              label={`Inhalt von ${folder.data.breadcrumb}`}
              folderLink={(child) => `/folders/show/${child.id}`}
              onShowFileDialog={setSelectedFile}
              fetching={items.isFetching}
            />
          )}
        </>
      )}
      <FileDialog
        file={selectedFile}
        isAdmin={isAdmin}
        onClose={() => setSelectedFile(null)}
        onEdit={(file) => navigate(`/files/update/${file.id}`)}
        onDelete={(file) => {
          setSelectedFile(null);
          confirmDeleteFile(file);
        }}
      />
    </Stack>
  );
}

/** /folders/show/{id}: "Dateien im Ordner: {name}" or "Ordner leer" (product.md P3). */
export default function FolderShowPage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <FolderShow key={id} id={id} />;
}
