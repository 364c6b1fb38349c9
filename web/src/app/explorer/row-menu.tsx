import { Link } from 'react-router';
import { Menu } from '@mantine/core';
import { IconDownload, IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import type { ExplorerItem } from '../../features/files/files.api';
import { useOpenDocument } from '../../lib/document-content';
import { RowMenuTrigger, type RowAction, type RowActionHandler } from './explorer-row-menu';

interface RowMenuProps {
  item: ExplorerItem;
  actions: readonly RowAction[];
  onAction: RowActionHandler;
}

/** A row's "⋮" menu (as in Nextcloud or Drive); opened at once when it first replaces the trigger. */
export default function RowMenu({ item, actions, onAction }: RowMenuProps) {
  const file = item.type === 'file' ? item : undefined;
  // Opening marks the document read (decision 131); a failed download shows no message (product.md P12).
  const { run } = useOpenDocument(file ?? null);
  return (
    <Menu position="bottom-end" defaultOpened withinPortal>
      <Menu.Target>
        <RowMenuTrigger item={item} />
      </Menu.Target>
      <Menu.Dropdown>
        {file && actions.includes('view') ? (
          <Menu.Item leftSection={<IconEye size={18} aria-hidden />} onClick={() => void run('view')}>
            Ansehen
          </Menu.Item>
        ) : null}
        {file && actions.includes('download') ? (
          <Menu.Item
            leftSection={<IconDownload size={18} aria-hidden />}
            onClick={() => void run('download')}
          >
            Herunterladen
          </Menu.Item>
        ) : null}
        {actions.includes('edit') ? (
          file ? (
            <Menu.Item
              leftSection={<IconPencil size={18} aria-hidden />}
              onClick={() => onAction('edit', item)}
            >
              Bearbeiten
            </Menu.Item>
          ) : (
            <Menu.Item
              component={Link}
              to={`/folders/update/${item.id}`}
              leftSection={<IconPencil size={18} aria-hidden />}
            >
              Bearbeiten
            </Menu.Item>
          )
        ) : null}
        {actions.includes('delete') ? (
          <>
            <Menu.Divider />
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={18} aria-hidden />}
              onClick={() => onAction('delete', item)}
            >
              Löschen
            </Menu.Item>
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
