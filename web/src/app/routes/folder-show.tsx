import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconFolderCog, IconFolderOpen, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { DeleteErrorBanner } from '../explorer/delete-error-banner';
import { ExplorerGrid } from '../explorer/explorer-grid';
import { FileDialog } from '../../features/files/components/file-dialog';
import { useDeleteWithConfirmation } from '../explorer/use-delete-with-confirmation';
import { folderItemsQueryOptions, folderQueryOptions } from '../../features/folders/folders.api';
import type { StoredFile } from '../../features/files/files.api';
import {
  canChangeFolder,
  canCreateIn,
  folderSearch,
  PROTECTED_DISABLED_REASON,
  ROOT_DISABLED_REASON,
} from '../../features/folders/folders.rules';
import { isApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

/** A link styled as a button; when it cannot be used, a disabled button that points to the reason. */
function ActionLink({
  to,
  enabled,
  reasonId,
  icon,
  variant = 'filled',
  children,
}: {
  to: string;
  enabled: boolean;
  reasonId: string;
  icon: ReactNode;
  variant?: 'filled' | 'default';
  children: ReactNode;
}) {
  return enabled ? (
    <Button size="sm" variant={variant} leftSection={icon} component={Link} to={to}>
      {children}
    </Button>
  ) : (
    <Button size="sm" variant={variant} leftSection={icon} disabled aria-describedby={reasonId}>
      {children}
    </Button>
  );
}

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
  const creatable = canCreateIn(id);
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
            <Stack gap={4}>
              <Text style={{ overflowWrap: 'anywhere' }}>
                Ordner: <strong>{folder.data.breadcrumb}</strong>
              </Text>
              <Group gap="md">
                {folder.data.parent ? (
                  <Anchor
                    component={Link}
                    to={`/folders/show/${folder.data.parent.id}`}
                    size="sm"
                    style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
                  >
                    <IconArrowLeft size={16} aria-hidden />
                    Übergeordneter Ordner
                  </Anchor>
                ) : null}
                <Anchor
                  component={Link}
                  to={`/files${folderSearch(id)}`}
                  size="sm"
                  style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
                >
                  <IconFolderOpen size={16} aria-hidden />
                  Im Dateibereich öffnen
                </Anchor>
              </Group>
            </Stack>
            {isAdmin ? (
              <Stack gap={4} align="flex-end">
                <Group gap="xs">
                  <ActionLink
                    to={`/folders/update/${id}`}
                    enabled={changeable}
                    reasonId="folder-show-protected"
                    icon={<IconFolderCog size={18} aria-hidden />}
                    variant="default"
                  >
                    Ordner bearbeiten
                  </ActionLink>
                  <ActionLink
                    to={`/files/new?folder=${id}`}
                    enabled={creatable}
                    reasonId="folder-show-root"
                    icon={<IconUpload size={18} aria-hidden />}
                  >
                    Datei hochladen
                  </ActionLink>
                </Group>
                {changeable ? null : (
                  <Text id="folder-show-protected" size="sm" c="dimmed" maw={420} ta="right">
                    {PROTECTED_DISABLED_REASON}
                  </Text>
                )}
                {creatable ? null : (
                  <Text id="folder-show-root" size="sm" c="dimmed" maw={420} ta="right">
                    {ROOT_DISABLED_REASON}
                  </Text>
                )}
              </Stack>
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
              onOpenFile={setSelectedFile}
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
