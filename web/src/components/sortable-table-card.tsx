import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Group, NativeSelect, Paper, Text, Title } from '@mantine/core';
import type { DataTableColumn, DataTableSortStatus } from 'mantine-datatable';
import classes from './sortable-table.module.css';

/** A column with a plain-text title; a `sortable` one gets a German sort button as its header. */
export type SortableColumn<T> = DataTableColumn<T> & {
  title: string;
  /** Left out of the phone card, e.g. the name that heads the card, or the actions. */
  hiddenInCard?: boolean;
  /** What the phone card shows for the column when it differs from `render`. */
  renderInCard?: (record: T) => ReactNode;
};

/** How a row reads as a card on phones. */
export interface RowCardOptions<T> {
  /** The card's heading: the record's name. */
  title: (record: T) => string;
  /** Where the heading leads; the whole card opens it. */
  href: (record: T) => string;
  /** The row's actions as buttons (at least 44 px high). */
  actions?: (record: T) => ReactNode;
}

function cardValue<T>(column: SortableColumn<T>, record: T, index: number): ReactNode {
  if (column.renderInCard) return column.renderInCard(record);
  if (column.render) return column.render(record, index);
  const value = (record as Record<string, unknown>)[String(column.accessor)];
  return value === null || value === undefined || value === '' ? '–' : String(value);
}

interface RowCardProps<T> {
  record: T;
  index: number;
  columns: readonly SortableColumn<T>[];
  options: RowCardOptions<T>;
  pinned: boolean;
}

/**
 * One row on a phone: the name as a link over the whole card, every other column as
 * "label value", the actions as buttons. Buttons and links inside stay clickable above the card's link.
 */
export function RowCard<T>({ record, index, columns, options, pinned }: RowCardProps<T>) {
  const shown = columns.filter((column) => !column.hidden && !column.hiddenInCard);
  const actions = options.actions?.(record);
  return (
    <Paper withBorder radius="md" p="sm" className={classes.card} data-pinned={pinned || undefined}>
      <Title order={3} size="h4">
        <Anchor component={Link} to={options.href(record)} className={classes.cardLink}>
          {options.title(record)}
        </Anchor>
      </Title>
      <dl className={classes.fields}>
        {shown.map((column) => (
          <div key={String(column.accessor)} className={classes.field}>
            <Text component="dt" size="sm" c="dimmed">
              {column.title}
            </Text>
            <Text component="dd" size="sm" m={0}>
              {cardValue(column, record, index)}
            </Text>
          </div>
        ))}
      </dl>
      {actions ? (
        <Group gap="xs" mt="sm" className={classes.cardActions}>
          {actions}
        </Group>
      ) : null}
    </Paper>
  );
}

interface SortSelectProps<T> {
  columns: readonly SortableColumn<T>[];
  value: DataTableSortStatus<T>;
  onChange: (status: DataTableSortStatus<T>) => void;
}

/** Phones have no column headers to click: the sort is a choice above the cards. */
export function SortSelect<T>({ columns, value, onChange }: SortSelectProps<T>) {
  const options = columns
    .filter((column) => column.sortable && !column.hidden)
    .flatMap((column) => [
      { value: `${String(column.accessor)}:asc`, label: `${column.title}, aufsteigend` },
      { value: `${String(column.accessor)}:desc`, label: `${column.title}, absteigend` },
    ]);
  return (
    <NativeSelect
      label="Sortieren nach"
      data={options}
      value={`${String(value.columnAccessor)}:${value.direction}`}
      onChange={(event) => {
        const [accessor, direction] = event.currentTarget.value.split(':') as [string, 'asc' | 'desc'];
        onChange({ columnAccessor: accessor, direction });
      }}
    />
  );
}
