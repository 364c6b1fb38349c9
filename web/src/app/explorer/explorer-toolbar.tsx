import { ActionIcon, Button, Group, Menu } from '@mantine/core';
import {
  IconCalendarPlus,
  IconDots,
  IconFolderCog,
  IconFolderPlus,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { canChangeFolder, canCreateIn } from '../../features/folders/folders.rules';

export type ToolbarAction = 'create-folder' | 'edit-folder' | 'delete-folder' | 'upload' | 'period';

interface ExplorerToolbarProps {
  folderId: number;
  onAction: (action: ToolbarAction) => void;
  /** While a delete is asked for or running. */
  deleting?: boolean;
}

/** The name of the "⋯" menu with the rare and the destructive actions. */
export const MORE_ACTIONS_LABEL = 'Weitere Aktionen';

/**
 * The admins' actions for the active folder (product.md P3.5, P4.3), calm: only what can be done
 * here is shown. "Datei hochladen" is the main action, "Neuer Ordner" next to it; editing, deleting
 * and the Amtsperiode are rare (deleting destructive) and wait in the "⋯" menu. Creating and
 * uploading need a subfolder, the protected folders 1–4 cannot be edited or deleted: those
 * actions are left out rather than shown disabled with a sentence each (issue 16).
 */
export function ExplorerToolbar({ folderId, onAction, deleting = false }: ExplorerToolbarProps) {
  const creatable = canCreateIn(folderId);
  const changeable = canChangeFolder(folderId);

  return (
    <Group gap={8} component="section" aria-label="Ordner und Dateien verwalten">
      {creatable ? (
        <>
          <Button
            size="sm"
            leftSection={<IconUpload size={18} aria-hidden />}
            onClick={() => onAction('upload')}
          >
            Datei hochladen
          </Button>
          <Button
            size="sm"
            variant="default"
            leftSection={<IconFolderPlus size={18} aria-hidden />}
            onClick={() => onAction('create-folder')}
          >
            Neuer Ordner
          </Button>
        </>
      ) : null}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon
            size="input-sm"
            variant="default"
            aria-label={MORE_ACTIONS_LABEL}
            title={MORE_ACTIONS_LABEL}
            loading={deleting}
          >
            <IconDots size={20} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {changeable ? (
            <Menu.Item
              leftSection={<IconFolderCog size={18} aria-hidden />}
              onClick={() => onAction('edit-folder')}
            >
              Ordner bearbeiten
            </Menu.Item>
          ) : null}
          <Menu.Item
            leftSection={<IconCalendarPlus size={18} aria-hidden />}
            onClick={() => onAction('period')}
          >
            Amtsperiode erstellen
          </Menu.Item>
          {changeable ? (
            <>
              <Menu.Divider />
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={18} aria-hidden />}
                onClick={() => onAction('delete-folder')}
              >
                Ordner löschen
              </Menu.Item>
            </>
          ) : null}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
