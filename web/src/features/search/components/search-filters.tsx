import { useState } from 'react';
import { Button, Checkbox, Select, SimpleGrid, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFilter } from '@tabler/icons-react';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { fileKindOf, KNOWN_EXTENSIONS } from '../../../components/file-icon';
import { DayRange, ResetFilters } from '../../../components/filter-parts';
import type { SearchType } from '../search.api';
import { hasSearchFilters, isSearchType, type SearchState } from '../search-state';

const ALL = 'alle';

const TYPE_OPTIONS = [
  { value: ALL, label: 'Alles' },
  { value: 'file', label: 'Dateien' },
  { value: 'folder', label: 'Ordner' },
  { value: 'event', label: 'Events' },
  { value: 'resolution', label: 'Beschlüsse' },
] satisfies { value: SearchType | typeof ALL; label: string }[];

const FORMAT_OPTIONS = [
  { value: ALL, label: 'Alle Dateitypen' },
  ...[...KNOWN_EXTENSIONS]
    .sort()
    .map((format) => ({ value: format, label: `${format.toUpperCase()} – ${fileKindOf(format).label}` })),
];

const SORT_OPTIONS = [
  { value: 'relevance', label: 'Relevanz' },
  { value: 'date', label: 'Datum (neueste zuerst)' },
];

/** The part of the state the filters change; every change applies at once. */
export type SearchFilterPatch = Partial<
  Pick<SearchState, 'type' | 'format' | 'from' | 'to' | 'everywhere' | 'sort'>
>;

interface SearchFiltersProps {
  state: SearchState;
  /** The path of the folder the search started in, once known. */
  folderPath: string | undefined;
  /** Why the search is not sent, by query field (a reversed range under "to"). */
  errors: Partial<Record<string, string>>;
  onChange: (patch: SearchFilterPatch) => void;
}

const FILTERS_ID = 'search-filters';

/**
 * Kind, file type, time of the last change, the folder and the order of the hits. On phones the
 * fields fold away behind a button, so the hits are not pushed below the screen.
 */
export function SearchFilters({ state, folderPath, errors, onChange }: SearchFiltersProps) {
  const small = useMediaQuery(SMALL_SCREEN_QUERY, false, { getInitialValueInEffect: false });
  const [open, setOpen] = useState(false);
  const active =
    [state.type, state.format, state.from, state.to].filter(Boolean).length + (state.sort === 'date' ? 1 : 0);
  const shown = !small || open || errors.to !== undefined;
  const formats =
    state.format && !FORMAT_OPTIONS.some((option) => option.value === state.format)
      ? [...FORMAT_OPTIONS, { value: state.format, label: state.format.toUpperCase() }]
      : FORMAT_OPTIONS;
  // Folders, events and resolutions have no file type; an event's date is its start, a resolution's
  // its establishment.
  const withFormat = state.type === '' || state.type === 'file';
  const dayLabels =
    state.type === 'event'
      ? (['Beginn ab', 'Beginn bis'] as const)
      : state.type === 'resolution'
        ? (['Festgestellt ab', 'Festgestellt bis'] as const)
        : (['Geändert ab', 'Geändert bis'] as const);

  return (
    <Stack gap="sm" component="section" aria-label="Suche eingrenzen">
      {small ? (
        <Button
          variant="default"
          size="xs"
          leftSection={<IconFilter size={16} aria-hidden />}
          aria-expanded={shown}
          aria-controls={FILTERS_ID}
          onClick={() => setOpen((current) => !current)}
          style={{ alignSelf: 'flex-start' }}
        >
          {shown ? 'Filter und Sortierung ausblenden' : 'Filter und Sortierung anzeigen'}
          {active > 0 ? ` (${active} aktiv)` : ''}
        </Button>
      ) : null}
      {shown ? (
        <SimpleGrid id={FILTERS_ID} cols={{ base: 1, xs: 2, md: 5 }} spacing="md" verticalSpacing="sm">
          <Select
            label="Art"
            data={TYPE_OPTIONS}
            value={state.type || ALL}
            allowDeselect={false}
            onChange={(type) => onChange({ type: isSearchType(type) ? type : '' })}
          />
          <Select
            label="Dateityp"
            data={formats}
            value={withFormat ? state.format || ALL : ALL}
            disabled={!withFormat}
            allowDeselect={false}
            searchable
            nothingFoundMessage="Kein Dateityp gefunden"
            onChange={(format) => onChange({ format: format && format !== ALL ? format : '' })}
          />
          <DayRange labels={dayLabels} from={state.from} to={state.to} errors={errors} onChange={onChange} />
          <Select
            label="Sortieren nach"
            data={SORT_OPTIONS}
            value={state.sort}
            allowDeselect={false}
            onChange={(sort) => onChange({ sort: sort === 'date' ? 'date' : 'relevance' })}
          />
        </SimpleGrid>
      ) : null}
      {state.folderId !== undefined ? (
        <Checkbox
          label={folderPath ? `Nur in diesem Ordner (${folderPath})` : 'Nur in diesem Ordner'}
          checked={!state.everywhere}
          onChange={(event) => onChange({ everywhere: !event.currentTarget.checked })}
        />
      ) : null}
      <ResetFilters
        active={hasSearchFilters(state)}
        onReset={() => onChange({ type: '', format: '', from: '', to: '' })}
      />
    </Stack>
  );
}
