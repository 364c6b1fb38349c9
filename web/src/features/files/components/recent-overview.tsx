import { PathText } from '../../../components/path-text';
import { useState } from 'react';
import { Link } from 'react-router';
import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { FileIcon } from '../../../components/file-icon';
import { useQueryClient } from '@tanstack/react-query';
import { downloadDocument } from '../../../lib/document-content';
import { refreshDocumentArea } from '../../../lib/document-area';
import { formatDate, formatSizeMb } from '../../../lib/format';
import type { ExplorerItem } from '../files.api';
import classes from './recent-overview.module.css';

/** product.md P13.1: four items per row. */
export const ITEMS_PER_ROW = 4;

/** The newest items first; the root is no item of its own. */
export function newestItems(items: readonly ExplorerItem[], limit: number): ExplorerItem[] {
  return [...items]
    .filter((item) => !(item.type === 'folder' && item.parent_id === null))
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.title.localeCompare(b.title, 'de'))
    .slice(0, limit);
}

/** Empty cells that fill the last row up to four (product.md P3). */
export const paddingCount = (count: number) => (ITEMS_PER_ROW - (count % ITEMS_PER_ROW)) % ITEMS_PER_ROW;

function ItemContent({ item }: { item: ExplorerItem }) {
  return (
    <Stack gap={6} align="center" ta="center">
      <FileIcon format={item.type === 'folder' ? 'folder' : item.format} size={44} />
      <Text fw={600} fz={{ base: 'sm', sm: 'md' }} className={classes.title}>
        {item.title}
      </Text>
      <Text size="xs" c="dimmed" className={classes.title}>
        {item.type === 'folder' ? (
          <>
            Ordner · <PathText text={item.breadcrumb} />
          </>
        ) : (
          `${item.format.toUpperCase()} · ${formatSizeMb(item.size_bytes, { unit: 'bytes' })}`
        )}
      </Text>
      <Text size="xs" c="dimmed">
        geändert am {formatDate(item.updated_at)}
      </Text>
    </Stack>
  );
}

/**
 * "Übersicht aktueller Dateien" (product.md P3.7): the newest files and folders, four per row (fewer
 * on small screens). A file downloads on click, a folder opens /folders/show/{id}.
 */
export function RecentOverview({ items }: { items: readonly ExplorerItem[] }) {
  const queryClient = useQueryClient();
  const [busyId, setBusyId] = useState<number | null>(null);

  const download = async (item: Extract<ExplorerItem, { type: 'file' }>) => {
    setBusyId(item.id);
    try {
      await downloadDocument(item);
      // Decision 131: the download made it read.
      if (item.new !== false) void refreshDocumentArea(queryClient);
    } catch {
      // product.md P12: a failed download shows no message.
    } finally {
      setBusyId(null);
    }
  };

  return (
    <SimpleGrid
      component="ul"
      cols={{ base: 2, md: ITEMS_PER_ROW }}
      spacing={{ base: 'xs', sm: 'md' }}
      className={classes.grid}
    >
      {items.map((item) => (
        <li key={`${item.type}-${item.id}`}>
          {item.type === 'folder' ? (
            <Paper
              component={Link}
              to={`/folders/show/${item.id}`}
              withBorder
              radius="md"
              p={{ base: 'xs', sm: 'md' }}
              className={classes.card}
              aria-label={`Ordner ${item.breadcrumb} öffnen`}
            >
              <ItemContent item={item} />
            </Paper>
          ) : (
            <Paper
              component="button"
              type="button"
              withBorder
              radius="md"
              p={{ base: 'xs', sm: 'md' }}
              className={classes.card}
              onClick={() => void download(item)}
              aria-label={`${item.title}.${item.format} herunterladen`}
              aria-busy={busyId === item.id || undefined}
            >
              <ItemContent item={item} />
            </Paper>
          )}
        </li>
      ))}
      {Array.from({ length: paddingCount(items.length) }, (_, index) => (
        <li key={`empty-${index}`} aria-hidden className={classes.filler} data-testid="empty-cell" />
      ))}
    </SimpleGrid>
  );
}
