import { Alert, Badge, Text } from '@mantine/core';
import { IconArchive } from '@tabler/icons-react';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';

/**
 * "Archiv" next to the title of an archived folder (an ended Amtsperiode, decision 189): small and
 * gray, with the reason as its tooltip. `id` lets a tree item name it in its description.
 */
export function ArchiveBadge({ id }: { id?: string }) {
  return (
    <Badge
      component="span"
      id={id}
      color="gray"
      size="sm"
      variant="light"
      title={FOLDER_MESSAGES.archived}
      style={{ flexShrink: 0 }}
    >
      {FOLDER_MESSAGES.archivedBadge}
    </Badge>
  );
}

/**
 * Why the changing actions are missing (decision 124: left out, with one sentence): the folder or
 * the document's folder is archived (decision 189).
 */
export function ArchivedNote() {
  return (
    <Alert
      color="gray"
      variant="light"
      icon={<IconArchive aria-hidden />}
      title={FOLDER_MESSAGES.archivedBadge}
    >
      <Text size="sm">{FOLDER_MESSAGES.archived}</Text>
    </Alert>
  );
}
