import type { ExplorerItem } from '../../features/files/files.api';
import { formatSizeMb } from '../../lib/format';

/** How the explorer grid orders and labels its rows, apart from how it draws them. */

export type SortColumn = 'title' | 'format' | 'size' | 'updated_at';
export interface SortStatus {
  column: SortColumn;
  direction: 'asc' | 'desc';
}
export const SORT_BY_NAME: SortStatus = { column: 'title', direction: 'asc' };

const collator = new Intl.Collator('de-DE', { sensitivity: 'base', numeric: true });

/** What the type column shows: "Ordner" or the extension in capitals. */
export const typeLabel = (item: ExplorerItem) =>
  item.type === 'folder' ? 'Ordner' : item.format.toUpperCase();
/** Folders have no size of their own; files show MB with two decimals ("1,25 MB"). */
export const sizeLabel = (item: ExplorerItem) =>
  item.type === 'folder' ? '' : formatSizeMb(item.size_bytes, { unit: 'bytes' });

/** Folders always come first (product.md P3); within each group by the chosen column. */
export function sortItems(items: readonly ExplorerItem[], status: SortStatus): ExplorerItem[] {
  const factor = status.direction === 'asc' ? 1 : -1;
  const compare = (a: ExplorerItem, b: ExplorerItem): number => {
    switch (status.column) {
      case 'format':
        return collator.compare(typeLabel(a), typeLabel(b));
      case 'size':
        return (a.type === 'file' ? a.size_bytes : 0) - (b.type === 'file' ? b.size_bytes : 0);
      case 'updated_at':
        // ISO UTC strings: text order is time order.
        return a.updated_at.localeCompare(b.updated_at);
      default:
        return collator.compare(a.title, b.title);
    }
  };
  return [...items].sort((a, b) => {
    if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;
    return compare(a, b) * factor || collator.compare(a.title, b.title) || a.id - b.id;
  });
}
