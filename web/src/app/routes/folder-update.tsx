import { PathText } from '../../components/path-text';
import { Link, useNavigate } from 'react-router';
import { Alert, Anchor, Box, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconFolderOpen, IconLock, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ROOT_FOLDER_ID } from '@gremienportal/contracts/rules';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { PageSection } from '../../components/page-section';
import { AdminAccessAccordion } from '../explorer/admin-access-accordion';
import touch from '../explorer/touch.module.css';
import { DeleteErrorBanner } from '../explorer/delete-error-banner';
import { Detail } from '../../features/files/components/file-details';
import { RoleBadges } from '../../components/role-badges';
import { ArchiveBadge, ArchivedNote } from '../../components/archive-badge';
import { FolderEditForm } from '../../features/folders/components/folder-edit-form';
import { useDeleteWithConfirmation } from '../explorer/use-delete-with-confirmation';
import { folderQueryOptions } from '../../features/folders/folders.api';
import {
  canChangeFolder,
  folderSearch,
  PROTECTED_DISABLED_REASON,
} from '../../features/folders/folders.rules';
import { isApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { plural } from '../../lib/plural';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

function FolderUpdate({ id }: { id: number }) {
  const navigate = useNavigate();
  const folder = useQuery(folderQueryOptions(id));
  const { confirmDeleteFolder, deleting, deleteError, clearDeleteError } = useDeleteWithConfirmation({
    failure: 'banner',
    // product.md P4: after a folder delete go to /files, here opened at the parent.
    onFolderDeleted: (deleted) =>
      navigate(`/files${folderSearch(deleted.parent_id ?? ROOT_FOLDER_ID)}`, { replace: true }),
  });

  if (folder.isError && isApiError(folder.error) && folder.error.status === 404) return <NotFoundPage />;
  const changeable = canChangeFolder(id);
  // Decision 189: an archived folder keeps its name, place and content.
  const archived = folder.data?.archived === true;

  return (
    <Stack gap="lg" maw={1100}>
      <PageTitle documentTitle="Ordner bearbeiten">
        {folder.data ? `Ordner bearbeiten: ${folder.data.title}` : 'Ordner bearbeiten'}
      </PageTitle>
      <DeleteErrorBanner error={deleteError} onClose={clearDeleteError} />
      {folder.isPending ? (
        <LoadingState />
      ) : folder.isError ? (
        <ErrorState detail={folder.error.message} onRetry={() => void folder.refetch()} />
      ) : (
        <>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
            <Stack gap="lg">
              <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="lg" m={0}>
                <Detail label="Pfad">
                  <PathText text={folder.data.breadcrumb} />
                  {archived ? (
                    <>
                      {' '}
                      <ArchiveBadge />
                    </>
                  ) : null}
                </Detail>
                <Detail label="Übergeordneter Ordner">
                  {folder.data.parent ? (
                    <Anchor
                      component={Link}
                      to={`/folders/show/${folder.data.parent.id}`}
                      className={touch.textLink}
                    >
                      <PathText text={folder.data.parent.breadcrumb} />
                    </Anchor>
                  ) : (
                    'keiner'
                  )}
                </Detail>
                <Detail label="Zugriffsberechtigung">
                  <RoleBadges roles={folder.data.roles} />
                </Detail>
                <Detail label="Inhalt">
                  {plural(folder.data.children, 'Unterordner', 'Unterordner')},{' '}
                  {plural(folder.data.files, 'Dokument', 'Dokumente')}
                </Detail>
                <Detail label="Angelegt">{formatDateTime(folder.data.date)}</Detail>
                <Detail label="Zuletzt geändert">{formatDateTime(folder.data.updated_at)}</Detail>
              </SimpleGrid>
              <Group gap="sm">
                <Button
                  variant="default"
                  component={Link}
                  to={`/folders/show/${id}`}
                  leftSection={<IconFolderOpen size={18} aria-hidden />}
                >
                  Inhalt anzeigen
                </Button>
                {/* A protected folder cannot be deleted: the notice below says so (decision 124). */}
                {changeable && !archived ? (
                  <Button
                    variant="light"
                    color="red"
                    leftSection={<IconTrash size={18} aria-hidden />}
                    loading={deleting}
                    onClick={() => void confirmDeleteFolder(id)}
                  >
                    Löschen
                  </Button>
                ) : null}
              </Group>
            </Stack>
          </Paper>
          <PageSection id="rename" title="Ordner umbenennen">
            <Box maw={560}>
              {archived ? (
                <ArchivedNote />
              ) : changeable ? (
                <FolderEditForm
                  key={`${folder.data.title}-${folder.data.updated_at}`}
                  variant="rename"
                  folder={folder.data}
                  onSaved={() => undefined}
                />
              ) : (
                <Alert color="gray" variant="light" icon={<IconLock aria-hidden />}>
                  <Text size="sm">{PROTECTED_DISABLED_REASON}</Text>
                </Alert>
              )}
            </Box>
          </PageSection>
          <AdminAccessAccordion type="folder" id={id} />
        </>
      )}
    </Stack>
  );
}

/** /folders/update/{id}: the folder with its roles, "Löschen" and the rename form (product.md P3). */
export default function FolderUpdatePage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <FolderUpdate key={id} id={id} />;
}
