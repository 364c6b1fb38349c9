import { DateInput } from '@mantine/dates';

export interface DayInputProps {
  label: string;
  /** Read out by the clear button ("Anfangsdatum zurücksetzen"). */
  clearLabel: string;
  /** YYYY-MM-DD or empty. */
  value: string | undefined;
  error?: string | undefined;
  /** The other end of a range bounds the calendar. */
  minDate?: string | undefined;
  maxDate?: string | undefined;
  /** YYYY-MM-DD, or '' when cleared. */
  onChange: (day: string) => void;
}

/** One end of a filter's day range ("Von", "Bis"): a calendar day in German notation, clearable. */
export function DayInput({ label, clearLabel, value, error, minDate, maxDate, onChange }: DayInputProps) {
  return (
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
  );
}
