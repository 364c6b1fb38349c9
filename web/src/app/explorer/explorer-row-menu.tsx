import { forwardRef } from 'react';
import { IconDotsVertical } from '@tabler/icons-react';
import { canChangeFolder } from '../../features/folders/folders.rules';
import type { ExplorerItem } from '../../features/files/files.api';
import classes from './explorer-grid.module.css';

/** What a row's "⋮" menu offers. */
export type RowAction = 'view' | 'download' | 'edit' | 'delete';

/** Editing a file and deleting are the explorer's (its dialogs); viewing and downloading the menu's own. */
export type RowActionHandler = (action: 'edit' | 'delete', item: ExplorerItem) => void;

/**
 * What applies to a row and the user's rights: everyone views and downloads a document, admins also
 * edit (and move, in the same dialog) and delete it; admins edit and delete a folder that is not
 * protected (product.md P6.1). A member's folder row has nothing beyond opening it.
 */
export function rowActionsFor(item: ExplorerItem, isAdmin: boolean): RowAction[] {
  if (item.type === 'folder') return isAdmin && canChangeFolder(item.id) ? ['edit', 'delete'] : [];
  return isAdmin ? ['view', 'download', 'edit', 'delete'] : ['view', 'download'];
}

export const rowMenuLabel = (item: ExplorerItem) => `Aktionen für „${item.title}“`;

/**
 * The "⋮" button. Alone it is the cheap stand-in for the menu, so 50 rows cost 50 buttons rather
 * than 50 Mantine menus (decision 114): its first click makes the row render `RowMenu`, which uses
 * the same button as its target.
 */
export const RowMenuTrigger = forwardRef<HTMLButtonElement, { item: ExplorerItem }>(function RowMenuTrigger(
  { item, ...props },
  ref,
) {
  return (
    <button
      ref={ref}
      type="button"
      className={classes.menuButton}
      data-row-menu
      aria-label={rowMenuLabel(item)}
      aria-haspopup="menu"
      aria-expanded={false}
      {...props}
    >
      <IconDotsVertical size={20} aria-hidden />
    </button>
  );
});
