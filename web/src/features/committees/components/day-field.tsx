import type { Ref } from 'react';
import { DateInput } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { GermanDates } from '../../../components/german-dates';
import { parseGermanDay } from '../committees.rules';

interface DayFieldProps {
  label: string;
  name: string;
  /** YYYY-MM-DD, or '' while empty. */
  value: string;
  onChange: (day: string) => void;
  onBlur: () => void;
  error?: string;
  disabled?: boolean;
  required?: boolean;
  description?: string;
  minDate?: string;
  maxDate?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A calendar day typed as TT.MM.JJJJ or picked from a German calendar (week from Monday). */
export function DayField({
  label,
  value,
  onChange,
  onBlur,
  minDate,
  maxDate,
  inputRef,
  required,
  ...props
}: DayFieldProps) {
  return (
    <GermanDates>
      <DateInput
        {...props}
        ref={inputRef}
        label={label}
        withAsterisk={required}
        placeholder="TT.MM.JJJJ"
        valueFormat="DD.MM.YYYY"
        dateParser={parseGermanDay}
        value={value || null}
        onChange={(day) => onChange(day ?? '')}
        onBlur={onBlur}
        {...(minDate ? { minDate } : {})}
        {...(maxDate ? { maxDate } : {})}
        leftSection={<IconCalendar size={18} aria-hidden />}
        previousLabel="Vorheriger Monat"
        nextLabel="Nächster Monat"
        popoverProps={{ withinPortal: true }}
      />
    </GermanDates>
  );
}
