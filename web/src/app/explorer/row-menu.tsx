import { Link } from 'react-router';
import { Menu } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { Folder } from '../../features/folders/folders.api';
import { RowMenuTrigger, type FolderRowAction, type RowActionHandler } from './explorer-row-menu';

interface RowMenuProps {
  folder: Folder;
  actions: readonly FolderRowAction[];
  onAction: RowActionHandler;
}

/** A folder row's "⋮" menu (as in Nextcloud or Drive); opened at once when it first replaces the trigger. */
export default function RowMenu({ folder, actions, onAction }: RowMenuProps) {
  return (
    <Menu position="bottom-end" defaultOpened withinPortal>
      <Menu.Target>
        <RowMenuTrigger item={folder} />
      </Menu.Target>
      <Menu.Dropdown>
        {actions.includes('edit') ? (
          <Menu.Item
            component={Link}
            to={`/folders/update/${folder.id}`}
            leftSection={<IconPencil size={18} aria-hidden />}
          >
            Bearbeiten
          </Menu.Item>
        ) : null}
        {actions.includes('delete') ? (
          <>
            <Menu.Divider />
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={18} aria-hidden />}
              onClick={() => onAction('delete', folder)}
            >
              Löschen
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
