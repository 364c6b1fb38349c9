import { lazy, memo, Suspense } from 'react';
import { Link } from 'react-router';
import { Table, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { NEWS_MESSAGES } from '@gremienportal/contracts/news-messages';
import { ArchiveBadge } from '../../components/archive-badge';
import { FileIcon } from '../../components/file-icon';
import { formatDateTime } from '../../lib/format';
import type { ExplorerItem } from '../../features/files/files.api';
import classes from './explorer-grid.module.css';
import { sizeLabel, typeLabel, type SortColumn, type SortStatus } from './explorer-sort';
import { RowMenuTrigger, folderActionsFor, type RowActionHandler } from './explorer-row-menu';

// Mantine's Menu loads with the first opened row menu, not with the page (decision 024).
const RowMenu = lazy(() => import('./row-menu'));

/** The head and the rows of the explorer's grid; the grid itself and its skeleton use them. */

export const COLUMNS: readonly { column: SortColumn; title: string; align?: 'right' }[] = [
  { column: 'title', title: 'Name' },
  { column: 'format', title: 'Dateityp' },
  { column: 'size', title: 'Größe', align: 'right' },
  { column: 'updated_at', title: 'Änderung' },
];

interface GridHeadProps {
  sortStatus: SortStatus;
  /** Whether the rows have a "⋮" column (the grid's always; the skeleton's not). */
  withActions?: boolean;
  /** Without it (the skeleton) the titles are plain text rather than sort buttons. */
  onSort?: (column: SortColumn) => void;
}

export function GridHead({ sortStatus, onSort, withActions = false }: GridHeadProps) {
  return (
    <Table.Thead>
      <Table.Tr>
        {COLUMNS.map(({ column, title, align }) => {
          const active = sortStatus.column === column;
          const SortGlyph = !active
            ? IconArrowsSort
            : sortStatus.direction === 'asc'
              ? IconArrowUp
              : IconArrowDown;
          const content = (
            <>
              {title}
              <SortGlyph size={14} aria-hidden className={active ? undefined : classes.sortIdle} />
            </>
          );
          return (
            <Table.Th
              key={column}
              visibleFrom={column === 'title' ? undefined : 'sm'}
              ta={align}
              aria-sort={
                onSort && active ? (sortStatus.direction === 'asc' ? 'ascending' : 'descending') : undefined
              }
            >
              {onSort ? (
                <UnstyledButton className={classes.sortButton} onClick={() => onSort(column)}>
                  {content}
                </UnstyledButton>
              ) : (
                <span className={classes.sortButton}>{content}</span>
              )}
            </Table.Th>
          );
        })}
        {withActions ? (
          <Table.Th className={classes.actionsCell}>
            <VisuallyHidden>Aktionen</VisuallyHidden>
          </Table.Th>
        ) : null}
      </Table.Tr>
    </Table.Thead>
  );
}

export const rowKey = (item: ExplorerItem) => `${item.type}-${item.id}`;

interface GridRowProps {
  item: ExplorerItem;
  /** Where the name leads: the folder (explorer or folder page) or the document page. */
  href: string;
  /** With a handler, admins' folder rows get a "⋮" menu (edit, delete). */
  onAction?: RowActionHandler;
  isAdmin: boolean;
  /** The folder's menu was opened once: the row renders the Mantine menu instead of the plain trigger. */
  menuActive: boolean;
}

/**
 * One row of the grid in plain table markup styled by the module: a 500-item folder shows 50 of
 * these, and with a dozen Mantine components each they made the explorer's longest task
 * (decision 114). Memoised, so a re-render of the explorer (the tree arriving, a dialog opening)
 * leaves the rows alone. The name is a link (to the folder, or to the document page, decision
 * 183); a document's "⋮" opens the file dialog. Clicks are handled once for the whole body, see
 * `ExplorerGrid`.
 */
export const GridRow = memo(function GridRow({ item, href, onAction, isAdmin, menuActive }: GridRowProps) {
  const folderActions = item.type === 'folder' && onAction ? folderActionsFor(item, isAdmin) : [];
  const type = typeLabel(item);
  const size = sizeLabel(item);
  const changed = formatDateTime(item.updated_at);
  return (
    <tr className={classes.row} data-key={rowKey(item)} data-type={item.type}>
      <td className={classes.cell}>
        <div className={classes.nameCell}>
          <FileIcon format={item.type === 'folder' ? 'folder' : item.format} />
          <div className={classes.nameStack}>
            <div className={classes.nameLine}>
              <Link to={href} className={classes.name}>
                {item.title}
              </Link>
              {/* Decision 131: what is new for the member. */}
              {item.type === 'file' ? (
                item.new ? (
                  <span className={classes.newBadge}>{NEWS_MESSAGES.newBadge}</span>
                ) : null
              ) : item.new_count > 0 ? (
                <span className={classes.newBadge}>{NEWS_MESSAGES.newCount(item.new_count)}</span>
              ) : null}
              {item.type === 'folder' && item.archived ? <ArchiveBadge /> : null}
            </div>
            <p className={`${classes.meta} ${classes.narrowOnly}`}>
              {[type, size, changed].filter(Boolean).join(' · ')}
            </p>
          </div>
        </div>
      </td>
      <td className={`${classes.cell} ${classes.wideOnly} ${classes.nowrap}`}>{type}</td>
      <td className={`${classes.cell} ${classes.wideOnly} ${classes.nowrap} ${classes.end}`}>{size}</td>
      <td className={`${classes.cell} ${classes.wideOnly} ${classes.nowrap}`}>{changed}</td>
      <td className={`${classes.cell} ${classes.actionsCell}`}>
        {item.type === 'file' ? (
          <RowMenuTrigger item={item} popup="dialog" />
        ) : folderActions.length === 0 || !onAction ? null : menuActive ? (
          <Suspense fallback={<RowMenuTrigger item={item} />}>
            <RowMenu folder={item} actions={folderActions} onAction={onAction} />
          </Suspense>
        ) : (
          <RowMenuTrigger item={item} />
        )}
      </td>
    </tr>
  );
});
