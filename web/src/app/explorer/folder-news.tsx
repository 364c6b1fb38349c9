import { Button, Group, Text } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import { NEWS_MESSAGES } from '@gremienportal/contracts/news-messages';
import { showFailureToast, showSuccessToast } from '../../components/toasts';
import { useMarkRead } from '../../features/news/news.api';
import classes from './folder-news.module.css';

/** "Alle als gelesen markieren" for a folder (with everything below it) or, without one, everything. */
export function MarkReadButton({ folderId }: { folderId?: number }) {
  const markRead = useMarkRead();
  return (
    <Button
      variant="default"
      size="compact-sm"
      leftSection={<IconChecks size={16} aria-hidden />}
      loading={markRead.isPending}
      onClick={() =>
        markRead.mutate(folderId, {
          onSuccess: (result) => showSuccessToast(result.message),
          onError: (error) => showFailureToast(NEWS_MESSAGES.markFailed, error),
        })
      }
    >
      {folderId === undefined ? NEWS_MESSAGES.markAllRead : NEWS_MESSAGES.markFolderRead}
    </Button>
  );
}

/**
 * Above a folder's grid: how many documents below it are new, and marking them read. Part of the
 * explorer's own chunk, not of the lazy news chunk: it appears in the same render as the grid, so
 * the rows never move down under a pointer that is about to click them.
 */
export function FolderNews({ folder }: { folder: { id: number; new_count: number } }) {
  return (
    <Group gap="sm" className={classes.folderBar}>
      <Text size="sm" fw={600}>
        {NEWS_MESSAGES.newCount(folder.new_count)} in diesem Ordner
      </Text>
      <MarkReadButton folderId={folder.id} />
    </Group>
  );
}
