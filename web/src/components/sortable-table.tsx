import { useId, useMemo, useState } from 'react';
import { Group, Stack, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import {
  dataTableDefaults,
  DEFAULT_PAGE_SIZE,
  paginationDefaults,
  paginationTextFor,
  SMALL_SCREEN_QUERY,
  type CountNoun,
} from './data-table-defaults';
import { RowCard, SortSelect, type RowCardOptions, type SortableColumn } from './sortable-table-card';
import classes from './sortable-table.module.css';
import { activeFilterCount, TableFilters, type FilterField, type FilterValues } from './table-filters';

export type { RowCardOptions, SortableColumn } from './sortable-table-card';
export type SortStatus<T> = DataTableSortStatus<T>;

const collator = new Intl.Collator('de-DE', { sensitivity: 'base', numeric: true });

/** German reading order: case, accents and umlauts aside, "Punkt 2" before "Punkt 10". */
export const compareText = (left: string, right: string) => collator.compare(left, right);

const SORT_STATE = {
  asc: 'aufsteigend sortiert',
  desc: 'absteigend sortiert',
  none: 'nicht sortiert',
} as const;

/**
 * The header of a sortable column. mantine-datatable's own sort header announces its state in
 * English and turns the header cell into a button; this one keeps the column header a column
 * header, with a button inside whose name says the state in German.
 */
function SortButton({
  label,
  direction,
  onClick,
}: {
  label: string;
  direction: 'asc' | 'desc' | undefined;
  onClick: () => void;
}) {
  const Icon = direction === 'asc' ? IconArrowUp : direction === 'desc' ? IconArrowDown : IconSelector;
  return (
    <UnstyledButton onClick={onClick} w="100%" fw="inherit" fz="inherit">
      <Group gap={6} wrap="nowrap" justify="space-between">
        <span>{label}</span>
        <Icon size={14} aria-hidden style={{ opacity: direction ? 1 : 0.45, flexShrink: 0 }} />
      </Group>
      <VisuallyHidden>({SORT_STATE[direction ?? 'none']})</VisuallyHidden>
    </UnstyledButton>
  );
}

const NO_PINS: readonly number[] = [];

/** Cards bring their own frame: no table border, stripes or row lines around them. */
const CARD_LOOK = {
  noHeader: true,
  withTableBorder: false,
  striped: false,
  highlightOnHover: false,
  withRowBorders: false,
  horizontalSpacing: 0,
  verticalSpacing: 6,
} as const;

interface SortableTableProps<T extends { id: number }, K extends string> {
  /** The table's name, e.g. "Events". */
  'aria-label': string;
  columns: SortableColumn<T>[];
  records: readonly T[];
  initialSort: SortStatus<T>;
  sort: (rows: readonly T[], status: SortStatus<T>) => T[];
  /** One text field per entry above the table, e.g. "Titel enthält". */
  filterFields: readonly FilterField<K>[];
  /** The filter fields' name, e.g. "Events filtern". */
  filtersLabel: string;
  filter: (rows: readonly T[], values: FilterValues<K>) => T[];
  emptyText: string;
  /** Shown when there are records but none passes the filters. */
  filteredEmptyText: string;
  fetching?: boolean;
  /** Records created just now: first and highlighted, whatever the sort, until `onUnpin`. */
  pinnedIds?: readonly number[];
  /** A changed sort or filter lets go of the pinned records. */
  onUnpin?: () => void;
  /** Phones show each row as a card: its heading links to the record. */
  card: RowCardOptions<T>;
  /** The records' noun for the pager, in the dative: ['Event', 'Events'] → "1–10 von 12 Events". */
  countNoun?: CountNoun;
}

const NO_NOUN: CountNoun = ['Eintrag', 'Einträgen'];

/**
 * A table filtered, sorted and paged on the client, with the portal's look and German texts
 * everywhere: filters, sort buttons, pager and "Einträge pro Seite" (product.md P13.2). Below the
 * `sm` breakpoint every row is a card and the sort a choice above them: no table wider than a phone.
 */
export function SortableTable<T extends { id: number }, K extends string>({
  'aria-label': label,
  columns,
  records,
  initialSort,
  sort,
  filterFields,
  filtersLabel,
  filter,
  emptyText,
  filteredEmptyText,
  fetching,
  pinnedIds = NO_PINS,
  onUnpin,
  card,
  countNoun = NO_NOUN,
}: SortableTableProps<T, K>) {
  const filtersId = useId();
  const smallScreen = useMediaQuery(SMALL_SCREEN_QUERY, false, { getInitialValueInEffect: false });
  const [sortStatus, setSortStatus] = useState(initialSort);
  const [filters, setFilters] = useState(() => emptyFilters(filterFields));
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const filtering = activeFilterCount(filters) > 0;

  const rows = useMemo(() => {
    const pinned = pinnedIds
      .map((id) => records.find((record) => record.id === id))
      .filter((record): record is T => record !== undefined);
    const rest = records.filter((record) => !pinnedIds.includes(record.id));
    return [...pinned, ...sort(filter(rest, filters), sortStatus)];
  }, [records, pinnedIds, filter, filters, sort, sortStatus]);

  // New records are shown on the first page (set while rendering, so no stale page flashes up).
  const pinnedKey = pinnedIds.join(',');
  const [shownPinnedKey, setShownPinnedKey] = useState(pinnedKey);
  if (pinnedKey !== shownPinnedKey) {
    setShownPinnedKey(pinnedKey);
    setPage(1);
  }
  // After a delete the page may have become empty.
  const currentPage = Math.min(page, Math.max(1, Math.ceil(rows.length / pageSize)));

  const changeFilters = (next: FilterValues<K>) => {
    setFilters(next);
    setPage(1);
    onUnpin?.();
  };

  const changeSort = (next: SortStatus<T>) => {
    setSortStatus(next);
    setPage(1);
    onUnpin?.();
  };

  const sortBy = (accessor: SortableColumn<T>['accessor']) => {
    const again = sortStatus.columnAccessor === accessor;
    changeSort({
      columnAccessor: accessor,
      direction: again && sortStatus.direction === 'asc' ? 'desc' : 'asc',
    });
  };

  const tableColumns: DataTableColumn<T>[] = columns.map(
    ({ hiddenInCard: _hidden, renderInCard: _render, ...column }) => ({
      ...column,
      // The table's own sort header stays off (it would make the header cell a button).
      sortable: false,
      title: column.sortable ? (
        <SortButton
          label={column.title}
          direction={sortStatus.columnAccessor === column.accessor ? sortStatus.direction : undefined}
          onClick={() => sortBy(column.accessor)}
        />
      ) : (
        column.title
      ),
    }),
  );

  const cardColumns: DataTableColumn<T>[] = [
    {
      accessor: 'card',
      title: label,
      render: (record, index) => (
        <RowCard
          record={record}
          index={index}
          columns={columns}
          options={card}
          pinned={pinnedIds.includes(record.id)}
        />
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <TableFilters
        id={filtersId}
        label={filtersLabel}
        fields={filterFields}
        values={filters}
        onChange={(key, value) => changeFilters({ ...filters, [key]: value })}
        onReset={() => changeFilters(emptyFilters(filterFields))}
      />
      {smallScreen ? <SortSelect columns={columns} value={sortStatus} onChange={changeSort} /> : null}
      <DataTable<T>
        {...dataTableDefaults}
        {...paginationDefaults}
        {...(smallScreen ? CARD_LOOK : null)}
        paginationText={paginationTextFor(countNoun)}
        aria-label={label}
        className={smallScreen ? classes.cards : classes.table}
        columns={smallScreen ? cardColumns : tableColumns}
        records={rows.slice((currentPage - 1) * pageSize, currentPage * pageSize)}
        fetching={fetching}
        totalRecords={rows.length}
        page={currentPage}
        onPageChange={setPage}
        recordsPerPage={pageSize}
        onRecordsPerPageChange={(size: number) => {
          setPageSize(size);
          setPage(1);
        }}
        noRecordsText={records.length > 0 && filtering ? filteredEmptyText : emptyText}
        rowStyle={(row) =>
          !smallScreen && pinnedIds.includes(row.id)
            ? { backgroundColor: 'var(--mantine-color-brand-0)' }
            : undefined
        }
      />
    </Stack>
  );
}

function emptyFilters<K extends string>(fields: readonly FilterField<K>[]): FilterValues<K> {
  return Object.fromEntries(fields.map((field) => [field.key, ''])) as FilterValues<K>;
}
