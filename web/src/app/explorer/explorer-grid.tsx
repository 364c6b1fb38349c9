import { memo, useMemo, useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { SkeletonBar } from '../../components/skeleton-bar';
import type { ExplorerItem, StoredFile } from '../../features/files/files.api';
import type { Folder } from '../../features/folders/folders.api';
import classes from './explorer-grid.module.css';
import { COLUMNS, GridHead, GridRow, rowKey } from './explorer-grid-parts';
import type { RowActionHandler } from './explorer-row-menu';
import { sortItems, SORT_BY_NAME, type SortColumn, type SortStatus } from './explorer-sort';

/**
 * Up to this many items show at once; a bigger folder gets a pager, so a folder of 500 items
 * renders 50 rows (decision 073).
 */
export const EXPLORER_PAGE_SIZE = 50;

const PAGER_LABELS = { first: 'Beginn', last: 'Ende', previous: 'Zurück', next: 'Weiter' } as const;

interface ExplorerGridProps {
  items: readonly ExplorerItem[];
  /** Where a folder's name leads (explorer: `?folder=ID`; folder page: `/folders/show/ID`). */
  folderLink: (folder: Folder) => string;
  /** A document's "⋮": the file dialog "Datei ausgewählt" (decision 183). */
  onShowFileDialog: (file: StoredFile) => void;
  /** The accessible name of the table, e.g. "Inhalt von /Aufsichtsrat". */
  label: string;
  /** While a reload runs, the table is dimmed. */
  fetching?: boolean;
  /** Gives admins' folder rows a "⋮" menu; stable, like `onShowFileDialog`. */
  onRowAction?: RowActionHandler;
  /** Admins' rows offer editing and deleting. */
  isAdmin?: boolean;
}

/** Where a document's name leads: its page (decision 183). */
export const documentLink = (file: StoredFile) => `/files/show/${file.id}`;

/**
 * The grid with Name, Dateityp, Größe, Änderung (product.md P3): folders first, icons, sizes in MB,
 * dates de-DE, sortable by every column. Each name is a link (a folder, or a document's page), so
 * the grid works with the keyboard and a new tab; a plain click elsewhere in the row does the same.
 * A document's "⋮" opens the file dialog (decision 183). On a phone the three other columns
 * fold into a line under the name. A plain Mantine table rather than mantine-datatable keeps the
 * explorer inside its JavaScript budget (decision 073). Memoised: pass a stable `folderLink` and
 * `onShowFileDialog`, so the grid renders again only when its own data changes (decision 114).
 */
export const ExplorerGrid = memo(function ExplorerGrid({
  items,
  folderLink,
  onShowFileDialog,
  label,
  fetching,
  onRowAction,
  isAdmin = false,
}: ExplorerGridProps) {
  const navigate = useNavigate();
  const [sortStatus, setSortStatus] = useState<SortStatus>(SORT_BY_NAME);
  const [activeMenus, setActiveMenus] = useState<ReadonlySet<string>>(() => new Set());
  const [page, setPage] = useState(1);

  const rows = useMemo(() => sortItems(items, sortStatus), [items, sortStatus]);
  const pages = Math.max(1, Math.ceil(rows.length / EXPLORER_PAGE_SIZE));
  const currentPage = Math.min(page, pages);
  const shown = rows.slice((currentPage - 1) * EXPLORER_PAGE_SIZE, currentPage * EXPLORER_PAGE_SIZE);

  const hrefOf = (item: ExplorerItem) => (item.type === 'folder' ? folderLink(item) : documentLink(item));

  // One handler for every row: a click beside the name opens what the name links to; a document's
  // "⋮" opens the file dialog, a folder's swaps in its real menu.
  const handleBodyClick = (event: MouseEvent<HTMLTableSectionElement>) => {
    const target = event.target as Element;
    // A click inside an open menu's dropdown (rendered elsewhere, bubbling through React).
    if (!event.currentTarget.contains(target)) return;
    if (target.closest('a')) return;
    const key = target.closest<HTMLElement>('tr[data-key]')?.dataset.key;
    const item = shown.find((candidate) => rowKey(candidate) === key);
    if (!item || key === undefined) return;
    const trigger = target.closest<HTMLElement>('[data-row-menu]');
    if (trigger) {
      if (item.type === 'file') {
        // Safari does not focus a tapped button; the dialog returns focus to what had it.
        trigger.focus();
        onShowFileDialog(item);
      } else if (!activeMenus.has(key)) {
        // Its first click swaps in the real menu; after that the menu handles itself.
        setActiveMenus((current) => new Set(current).add(key));
      }
      return;
    }
    // A modified click beside the name is left to the browser; the name itself opens a new tab.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    navigate(hrefOf(item));
  };

  const sortBy = (column: SortColumn) => {
    setSortStatus((current) => ({
      column,
      direction: current.column === column && current.direction === 'asc' ? 'desc' : 'asc',
    }));
    setPage(1);
  };

  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={0}>
        <Table
          striped
          highlightOnHover
          withTableBorder
          verticalSpacing="sm"
          aria-label={label}
          aria-busy={fetching || undefined}
          className={classes.table}
          data-fetching={fetching || undefined}
        >
          <GridHead sortStatus={sortStatus} onSort={sortBy} withActions />
          <tbody className={classes.body} onClick={handleBodyClick}>
            {shown.length === 0 ? (
              <tr>
                <td className={classes.cell} colSpan={COLUMNS.length + 1}>
                  <Text c="dimmed" ta="center" py="md">
                    {FOLDER_MESSAGES.empty}
                  </Text>
                </td>
              </tr>
            ) : (
              shown.map((item) => (
                <GridRow
                  key={rowKey(item)}
                  item={item}
                  href={hrefOf(item)}
                  onAction={onRowAction}
                  isAdmin={isAdmin}
                  menuActive={activeMenus.has(rowKey(item))}
                />
              ))
            )}
          </tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? (
        <Group justify="space-between" gap="sm">
          <Text size="sm">
            {(currentPage - 1) * EXPLORER_PAGE_SIZE + 1}–
            {(currentPage - 1) * EXPLORER_PAGE_SIZE + shown.length} von {rows.length}
          </Text>
          <Pagination
            total={pages}
            value={currentPage}
            onChange={setPage}
            withEdges
            size="sm"
            aria-label="Seiten"
            getControlProps={(control) => ({
              'aria-label': PAGER_LABELS[control],
              title: PAGER_LABELS[control],
            })}
            getItemProps={(pageNumber) => ({ 'aria-label': `Seite ${pageNumber}` })}
          />
        </Group>
      ) : null}
    </Stack>
  );
});

interface ExplorerGridSkeletonProps {
  /** How many rows the folder will show, when known; otherwise enough to fill a screen. */
  rows?: number;
  /** Whether the folder will need the pager. */
  withPager?: boolean;
}

/** Rows shown while the number of items is not known yet: more than a phone or laptop screen. */
export const SKELETON_DEFAULT_ROWS = 12;

/**
 * The grid while it loads, built from the same table, header and cell classes as the grid, so
 * each row is exactly as tall as the row that replaces it and nothing below moves (decision 114).
 */
export const ExplorerGridSkeleton = memo(function ExplorerGridSkeleton({
  rows = SKELETON_DEFAULT_ROWS,
  withPager = false,
}: ExplorerGridSkeletonProps) {
  return (
    <Stack gap="sm" role="status" aria-label="Inhalt wird geladen">
      <Table.ScrollContainer minWidth={0}>
        <Table withTableBorder verticalSpacing="sm" className={classes.table} aria-hidden>
          <GridHead sortStatus={SORT_BY_NAME} />
          <tbody className={classes.body}>
            {Array.from({ length: rows }, (_, index) => (
              <tr key={index}>
                <td className={classes.cell}>
                  <div className={classes.nameCell}>
                    <SkeletonBar height={22} width={22} />
                    <div className={classes.nameStack} style={{ flex: 1 }}>
                      <div className={classes.skeletonName}>
                        <SkeletonBar height={14} width={`${45 + ((index * 37) % 40)}%`} />
                      </div>
                      <div className={`${classes.skeletonMeta} ${classes.narrowOnly}`}>
                        <SkeletonBar height={10} width="70%" />
                      </div>
                    </div>
                  </div>
                </td>
                {[40, 60, 80].map((width) => (
                  <td key={width} className={`${classes.cell} ${classes.wideOnly}`}>
                    <div className={classes.skeletonText}>
                      <SkeletonBar height={12} width={`${width}%`} />
                    </div>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      </Table.ScrollContainer>
      {withPager ? <div className={classes.skeletonPager} /> : null}
    </Stack>
  );
});
