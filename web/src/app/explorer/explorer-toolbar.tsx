import { useId } from 'react';
import { Button, Group, Stack, Text, useMatches } from '@mantine/core';
import { IconCalendarPlus, IconFolderCog, IconFolderPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import {
  canChangeFolder,
  canCreateIn,
  PROTECTED_DISABLED_REASON,
  ROOT_DISABLED_REASON,
} from '../../features/folders/folders.rules';

export type ToolbarAction = 'create-folder' | 'edit-folder' | 'delete-folder' | 'upload' | 'period';

interface ExplorerToolbarProps {
  folderId: number;
  onAction: (action: ToolbarAction) => void;
  /** While a delete is asked for or running. */
  deleting?: boolean;
}

/**
 * The admins' button row (product.md P3.5, P4.3): creating and uploading need a subfolder, the protected
 * folders 1–4 cannot be edited or deleted. A disabled button says why in the text below it.
 */
export function ExplorerToolbar({ folderId, onAction, deleting = false }: ExplorerToolbarProps) {
  const reasonId = useId();
  // Smaller buttons on a phone, so two fit side by side.
  const size = useMatches({ base: 'xs', sm: 'sm' });
  const creatable = canCreateIn(folderId);
  const changeable = canChangeFolder(folderId);
  const createReason = creatable ? undefined : `${reasonId}-create`;
  const changeReason = changeable ? undefined : `${reasonId}-change`;

  return (
    <Stack gap={6} component="section" aria-label="Ordner und Dateien verwalten">
      <Group gap={8}>
        <Button
          size={size}
          variant="default"
          leftSection={<IconFolderPlus size={18} aria-hidden />}
          disabled={!creatable}
          aria-describedby={createReason}
          onClick={() => onAction('create-folder')}
        >
          Neuer Ordner
        </Button>
        <Button
          size={size}
          variant="default"
          leftSection={<IconFolderCog size={18} aria-hidden />}
          disabled={!changeable}
          aria-describedby={changeReason}
          onClick={() => onAction('edit-folder')}
        >
          Ordner bearbeiten
        </Button>
        <Button
          size={size}
          variant="light"
          color="red"
          leftSection={<IconTrash size={18} aria-hidden />}
          disabled={!changeable}
          loading={deleting}
          aria-describedby={changeReason}
          onClick={() => onAction('delete-folder')}
        >
          Ordner löschen
        </Button>
        <Button
          size={size}
          leftSection={<IconUpload size={18} aria-hidden />}
          disabled={!creatable}
          aria-describedby={createReason}
          onClick={() => onAction('upload')}
        >
          Datei hochladen
        </Button>
        <Button
          size={size}
          variant="light"
          leftSection={<IconCalendarPlus size={18} aria-hidden />}
          onClick={() => onAction('period')}
        >
          Amtsperiode erstellen
        </Button>
      </Group>
      {createReason ? (
        <Text id={createReason} size="sm" c="dimmed">
          {ROOT_DISABLED_REASON}
        </Text>
      ) : null}
      {changeReason ? (
        <Text id={changeReason} size="sm" c="dimmed">
          {PROTECTED_DISABLED_REASON}
        </Text>
      ) : null}
    </Stack>
  );
}
