import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFolderPlus, IconUpload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { FILE_MESSAGES } from '@gremienportal/contracts/file-messages';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { NewFolderModal } from '../../features/folders/components/new-folder-modal';
import { newestItems, RecentOverview } from '../../features/files/components/recent-overview';
import { foldersQueryOptions } from '../../features/folders/folders.api';
import { recentFilesQueryOptions } from '../../features/files/files.api';
import { useAuth } from '../../lib/auth';

/** How many of the newest files and folders the overview shows: four rows of four. */
const RECENT_LIMIT = 16;

/** /old: "Übersicht aktueller Dateien" (product.md P3.7). */
export default function OldOverviewPage() {
  const { isAdmin } = useAuth();
  const files = useQuery(recentFilesQueryOptions(RECENT_LIMIT));
  const folders = useQuery(foldersQueryOptions());
  const [newFolderOpened, setNewFolderOpened] = useState(false);

  return (
    <Stack gap="lg">
      <PageTitle>{FILE_MESSAGES.overviewTitle}</PageTitle>
      <Group justify="space-between" gap="sm">
        <Text c="dimmed">
          Die zuletzt geänderten Dateien und Ordner. Eine Datei wird beim Anklicken heruntergeladen.
        </Text>
        {isAdmin ? (
          <Group gap="xs">
            <Button
              variant="default"
              size="sm"
              leftSection={<IconFolderPlus size={18} aria-hidden />}
              onClick={() => setNewFolderOpened(true)}
            >
              Neuer Ordner
            </Button>
            <Button
              size="sm"
              component={Link}
              to="/files/new"
              leftSection={<IconUpload size={18} aria-hidden />}
            >
              Datei hochladen
            </Button>
          </Group>
        ) : null}
      </Group>
      {files.isPending || folders.isPending ? (
        <LoadingState />
      ) : files.isError || folders.isError ? (
        <ErrorState
          onRetry={() => {
            void files.refetch();
            void folders.refetch();
          }}
        />
      ) : newestItems([...files.data, ...folders.data], RECENT_LIMIT).length === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Text c="dimmed">Noch keine Dateien vorhanden.</Text>
        </Paper>
      ) : (
        <RecentOverview items={newestItems([...files.data, ...folders.data], RECENT_LIMIT)} />
      )}
      {isAdmin ? <NewFolderModal opened={newFolderOpened} onClose={() => setNewFolderOpened(false)} /> : null}
    </Stack>
  );
}
