import { Link } from 'react-router';
import { Menu } from '@mantine/core';
import { IconCalendarPlus, IconFolderCog, IconTrash, IconTrashX } from '@tabler/icons-react';
import { MoreActionsButton, type ToolbarAction } from './explorer-actions';

/**
 * The explorer's "⋯" menu, loaded on its first click (components/deferred-menu.tsx). In an archived
 * folder (decision 189) nothing is created, and a folder that is or holds one is not deleted.
 */
export default function MoreActionsMenu({
  defaultOpened,
  changeable,
  archived = false,
  deletable = changeable,
  deleting,
  onAction,
}: {
  defaultOpened?: boolean;
  changeable: boolean;
  archived?: boolean;
  deletable?: boolean;
  deleting: boolean;
  onAction: (action: ToolbarAction) => void;
}) {
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <MoreActionsButton deleting={deleting} />
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
        {archived ? null : (
          <Menu.Item
            leftSection={<IconCalendarPlus size={18} aria-hidden />}
            onClick={() => onAction('period')}
          >
            Amtsperiode erstellen
          </Menu.Item>
        )}
        {/* Deleted things wait there to be restored (decision 125). */}
        <Menu.Item component={Link} to="/trash" leftSection={<IconTrashX size={18} aria-hidden />}>
          Papierkorb
        </Menu.Item>
        {deletable ? (
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
  );
}
