import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { IconDotsVertical } from '@tabler/icons-react';
import { canChangeFolder } from '../../features/folders/folders.rules';
import type { ExplorerItem } from '../../features/files/files.api';
import type { Folder } from '../../features/folders/folders.api';
import classes from './explorer-grid.module.css';

/** What a folder row's "⋮" menu offers. */
export type FolderRowAction = 'edit' | 'delete';

/** Deleting a folder is the explorer's (its confirmation); editing is a link. */
export type RowActionHandler = (action: 'delete', folder: Folder) => void;

/**
 * What a folder row's menu offers: admins edit and delete a folder that is not protected
 * (product.md P6.1) and not archived (decision 189: its name, place and content stay; its roles
 * are changed in the folder itself). A member's folder row has nothing beyond opening it. A
 * document's row has the file dialog instead of a menu (decision 183).
 */
export function folderActionsFor(folder: Folder, isAdmin: boolean): FolderRowAction[] {
  return isAdmin && canChangeFolder(folder.id) && !folder.archived ? ['edit', 'delete'] : [];
}

export const rowMenuLabel = (item: Pick<ExplorerItem, 'title'>) => `Aktionen für „${item.title}“`;

interface RowMenuTriggerProps extends Omit<ComponentPropsWithoutRef<'button'>, 'type'> {
  item: Pick<ExplorerItem, 'title'>;
  /** A folder's button opens a menu, a document's the dialog "Datei ausgewählt". */
  popup?: 'menu' | 'dialog';
}

/**
 * The "⋮" button. For a folder it is alone the cheap stand-in for the menu, so 50 rows cost 50
 * buttons rather than 50 Mantine menus (decision 114): its first click makes the row render
 * `RowMenu`, which uses the same button as its target. For a document it opens the file dialog.
 */
export const RowMenuTrigger = forwardRef<HTMLButtonElement, RowMenuTriggerProps>(function RowMenuTrigger(
  { item, popup = 'menu', ...props },
  ref,
) {
  return (
    <button
      ref={ref}
      type="button"
      className={classes.menuButton}
      data-row-menu={popup}
      aria-label={rowMenuLabel(item)}
      aria-haspopup={popup}
      aria-expanded={popup === 'menu' ? false : undefined}
      {...props}
    >
      <IconDotsVertical size={20} aria-hidden />
    </button>
  );
});
