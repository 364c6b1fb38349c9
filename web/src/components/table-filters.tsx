import { useState } from 'react';
import { Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFilter, IconFilterOff } from '@tabler/icons-react';
import { SMALL_SCREEN_QUERY } from './data-table-defaults';

export type FilterValues<K extends string> = Record<K, string>;

export interface FilterField<K extends string> {
  key: K;
  /** E.g. "Titel enthält". */
  label: string;
  placeholder?: string;
}

const normalized = (text: string) => text.trim().toLocaleLowerCase('de-DE');

/** How many filters hold text. */
export const activeFilterCount = (values: Partial<FilterValues<string>>) =>
  Object.values(values).filter((value) => normalized(value ?? '') !== '').length;

/**
 * The rows whose text contains every filter's text, case ignored. `textOf` gives what a person
 * reads in the column, so that is what a filter matches.
 */
export function filterRows<T, K extends string>(
  rows: readonly T[],
  filters: FilterValues<K>,
  textOf: (row: T, key: K) => string,
): T[] {
  const active = (Object.entries(filters) as [K, string][])
    .map(([key, text]) => [key, normalized(text)] as const)
    .filter(([, text]) => text !== '');
  if (active.length === 0) return [...rows];
  return rows.filter((row) =>
    active.every(([key, text]) => textOf(row, key).toLocaleLowerCase('de-DE').includes(text)),
  );
}

interface TableFiltersProps<K extends string> {
  /** The id of the fields' container, for the small-screen toggle's aria-controls. */
  id: string;
  /** The search region's name, e.g. "Events filtern". */
  label: string;
  fields: readonly FilterField<K>[];
  values: FilterValues<K>;
  onChange: (key: K, value: string) => void;
  onReset: () => void;
}

/** One text filter per column above a table; on small screens they fold away behind a button. */
export function TableFilters<K extends string>({
  id,
  label,
  fields,
  values,
  onChange,
  onReset,
}: TableFiltersProps<K>) {
  const active = activeFilterCount(values);
  const smallScreen = useMediaQuery(SMALL_SCREEN_QUERY);
  const [open, setOpen] = useState(false);
  const shown = !smallScreen || open || active > 0;

  return (
    <>
      {smallScreen ? (
        <Button
          variant="default"
          size="xs"
          leftSection={<IconFilter size={16} aria-hidden />}
          aria-expanded={shown}
          aria-controls={id}
          onClick={() => setOpen((current) => !current)}
          style={{ alignSelf: 'flex-start' }}
        >
          {shown ? 'Filter ausblenden' : 'Filter anzeigen'}
          {active > 0 ? ` (${active} aktiv)` : ''}
        </Button>
      ) : null}
      {shown ? (
        <SimpleGrid
          id={id}
          cols={{ base: 1, xs: 2, md: fields.length }}
          spacing="sm"
          role="search"
          aria-label={label}
        >
          {fields.map((field) => (
            <TextInput
              key={field.key}
              size="xs"
              label={field.label}
              placeholder={field.placeholder}
              value={values[field.key] ?? ''}
              onChange={(event) => onChange(field.key, event.currentTarget.value)}
            />
          ))}
        </SimpleGrid>
      ) : null}
      {active > 0 ? (
        <Group justify="flex-end">
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            onClick={onReset}
          >
            Filter zurücksetzen
          </Button>
        </Group>
      ) : null}
    </>
  );
}
