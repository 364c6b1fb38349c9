import { MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import {
  AUDIT_ACTION_NAMES,
  AUDIT_ACTIONS,
  AUDIT_OBJECT_TYPE_NAMES,
  AUDIT_OBJECT_TYPES,
} from '@gremienportal/contracts/audit';
import { DayRange, ResetFilters } from '../../../components/filter-parts';

/** What the filter row edits; empty strings and lists mean "no filter". */
export interface AuditFilterValues {
  q: string;
  actions: string[];
  objectType: string;
  /** YYYY-MM-DD (Berlin calendar day). */
  from: string;
  to: string;
}

export const EMPTY_FILTERS: AuditFilterValues = { q: '', actions: [], objectType: '', from: '', to: '' };

export const hasFilters = (values: AuditFilterValues) =>
  values.q.trim() !== '' ||
  values.actions.length > 0 ||
  values.objectType !== '' ||
  values.from !== '' ||
  values.to !== '';

const ACTION_OPTIONS = AUDIT_ACTION_NAMES.map((action) => ({ value: action, label: AUDIT_ACTIONS[action] }));
const OBJECT_TYPE_OPTIONS = AUDIT_OBJECT_TYPE_NAMES.map((type) => ({
  value: type,
  label: AUDIT_OBJECT_TYPES[type],
}));

interface AuditFiltersProps {
  values: AuditFilterValues;
  onChange: (values: AuditFilterValues) => void;
  /** Messages of the contract schema, by query field (q, action, object_type, from, to). */
  errors?: Partial<Record<string, string>>;
}

/** Person, action, object type and time range of the log; every change applies at once. */
export function AuditFilters({ values, onChange, errors = {} }: AuditFiltersProps) {
  const set = (patch: Partial<AuditFilterValues>) => onChange({ ...values, ...patch });

  return (
    <form role="search" aria-label="Aktivitäten filtern" onSubmit={(event) => event.preventDefault()}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="md" verticalSpacing="sm">
        <TextInput
          label="Person"
          placeholder="Name oder E-Mail-Adresse"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={values.q}
          error={errors.q}
          onChange={(event) => set({ q: event.currentTarget.value })}
        />
        <MultiSelect
          label="Aktion"
          placeholder={values.actions.length === 0 ? 'Alle Aktionen' : undefined}
          data={ACTION_OPTIONS}
          value={values.actions}
          error={errors.action}
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Aktionen zurücksetzen' }}
          hidePickedOptions
          maxDropdownHeight={320}
          onChange={(actions) => set({ actions })}
        />
        <Select
          label="Objekttyp"
          placeholder="Alle Objekte"
          data={OBJECT_TYPE_OPTIONS}
          value={values.objectType || null}
          error={errors.object_type}
          clearable
          allowDeselect
          clearButtonProps={{ 'aria-label': 'Objekttyp zurücksetzen' }}
          onChange={(objectType) => set({ objectType: objectType ?? '' })}
        />
        <DayRange labels={['Von', 'Bis']} from={values.from} to={values.to} errors={errors} onChange={set} />
      </SimpleGrid>
      <ResetFilters active={hasFilters(values)} onReset={() => onChange(EMPTY_FILTERS)} />
    </form>
  );
}
