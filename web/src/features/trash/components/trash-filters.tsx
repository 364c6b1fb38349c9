import { Select, SimpleGrid } from '@mantine/core';
import { TRASH_KINDS, type TrashKind } from '@gremienportal/contracts/trash';
import { DayRange, ResetFilters } from '../../../components/filter-parts';

/** What the filter row edits; empty strings mean "no filter". */
export interface TrashFilterValues {
  type: TrashKind | '';
  /** A user id as text. */
  deletedBy: string;
  /** YYYY-MM-DD (Berlin calendar day). */
  from: string;
  to: string;
}

export const EMPTY_TRASH_FILTERS: TrashFilterValues = { type: '', deletedBy: '', from: '', to: '' };

export const hasTrashFilters = (values: TrashFilterValues) =>
  values.type !== '' || values.deletedBy !== '' || values.from !== '' || values.to !== '';

const ALL = 'alle';
const TYPE_PLURALS: Record<TrashKind, string> = { file: 'Dateien', folder: 'Ordner', event: 'Events' };
const TYPE_OPTIONS = [
  { value: ALL, label: 'Alle' },
  ...TRASH_KINDS.map((type) => ({ value: type, label: TYPE_PLURALS[type] })),
];

export const isTrashKind = (value: string | null): value is TrashKind =>
  (TRASH_KINDS as readonly string[]).includes(value ?? '');

interface TrashFiltersProps {
  values: TrashFilterValues;
  onChange: (values: TrashFilterValues) => void;
  /** Everyone who deleted something now in the Papierkorb. */
  deleters: readonly { id: number; label: string }[];
  /** Messages of the contract schema, by query field (from, to). */
  errors?: Partial<Record<string, string>>;
}

/** Type, who deleted it and when; every change applies at once. */
export function TrashFilters({ values, onChange, deleters, errors = {} }: TrashFiltersProps) {
  const set = (patch: Partial<TrashFilterValues>) => onChange({ ...values, ...patch });
  const deleterOptions = [
    { value: ALL, label: 'Alle' },
    ...deleters.map((deleter) => ({ value: String(deleter.id), label: deleter.label })),
  ];
  // A deleter chosen in the address but gone from the list still shows as chosen.
  if (values.deletedBy && !deleterOptions.some((option) => option.value === values.deletedBy)) {
    deleterOptions.push({ value: values.deletedBy, label: `Person ${values.deletedBy}` });
  }

  return (
    <form role="search" aria-label="Papierkorb filtern" onSubmit={(event) => event.preventDefault()}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md" verticalSpacing="sm">
        <Select
          label="Typ"
          data={TYPE_OPTIONS}
          value={values.type || ALL}
          allowDeselect={false}
          onChange={(type) => set({ type: isTrashKind(type) ? type : '' })}
        />
        <Select
          label="Gelöscht von"
          data={deleterOptions}
          value={values.deletedBy || ALL}
          allowDeselect={false}
          searchable={deleterOptions.length > 8}
          nothingFoundMessage="Niemand gefunden"
          onChange={(id) => set({ deletedBy: id && id !== ALL ? id : '' })}
        />
        <DayRange
          labels={['Gelöscht ab', 'Gelöscht bis']}
          from={values.from}
          to={values.to}
          errors={errors}
          onChange={set}
        />
      </SimpleGrid>
      <ResetFilters active={hasTrashFilters(values)} onReset={() => onChange(EMPTY_TRASH_FILTERS)} />
    </form>
  );
}
