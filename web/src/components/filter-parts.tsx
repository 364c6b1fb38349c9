import type { ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconFilterOff } from '@tabler/icons-react';
import { GermanDates } from './german-dates';

interface DayInputProps {
  label: string;
  /** Read out by the clear button ("Anfangsdatum zurücksetzen"). */
  clearLabel: string;
  /** YYYY-MM-DD or empty. */
  value: string | undefined;
  error?: string | undefined;
  /** The other end of the range bounds the calendar. */
  minDate?: string | undefined;
  maxDate?: string | undefined;
  /** YYYY-MM-DD, or '' when cleared. */
  onChange: (day: string) => void;
}

/** One end of a filter's day range: a calendar day in German notation, clearable. */
function DayInput({ label, clearLabel, value, error, minDate, maxDate, onChange }: DayInputProps) {
  return (
    <GermanDates>
      <DateInput
        label={label}
        placeholder="TT.MM.JJJJ"
        valueFormat="DD.MM.YYYY"
        value={value || null}
        {...(minDate ? { minDate } : {})}
        {...(maxDate ? { maxDate } : {})}
        error={error}
        clearable
        clearButtonProps={{ 'aria-label': clearLabel }}
        onChange={(day) => onChange(day ?? '')}
      />
    </GermanDates>
  );
}

export interface DayRangeProps {
  /** The labels of the two ends ("Von"/"Bis", "Gelöscht ab"/"Gelöscht bis"). */
  labels: readonly [string, string];
  from: string | undefined;
  to: string | undefined;
  errors?: { from?: string | undefined; to?: string | undefined };
  onChange: (patch: { from: string } | { to: string }) => void;
}

/** A filter's time range as two calendar days, each bounded by the other (audit, Papierkorb). */
export function DayRange({ labels, from, to, errors = {}, onChange }: DayRangeProps) {
  return (
    <>
      <DayInput
        label={labels[0]}
        clearLabel="Anfangsdatum zurücksetzen"
        value={from}
        error={errors.from}
        maxDate={to}
        onChange={(day) => onChange({ from: day })}
      />
      <DayInput
        label={labels[1]}
        clearLabel="Enddatum zurücksetzen"
        value={to}
        error={errors.to}
        minDate={from}
        onChange={(day) => onChange({ to: day })}
      />
    </>
  );
}

/** "Filter zurücksetzen" under a filter form, shown only while a filter is set. */
export function ResetFilters({ active, onReset }: { active: boolean; onReset: () => void }): ReactNode {
  if (!active) return null;
  return (
    <Group mt="sm">
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconFilterOff size={16} aria-hidden />}
        onClick={onReset}
      >
        Filter zurücksetzen
      </Button>
    </Group>
  );
}
