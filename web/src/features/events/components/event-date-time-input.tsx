import { DateTimePicker } from '@mantine/dates';
import { IconCalendarEvent } from '@tabler/icons-react';
import { GermanDates } from '../../../components/german-dates';

/**
 * Mantine's picker speaks "YYYY-MM-DD HH:mm:ss" without a zone; the contract reads that as
 * Europe/Berlin wall-clock time (decision 040). The form keeps '' for "nothing chosen".
 */
export const toPickerValue = (value: string): string | null => (value ? value : null);

/** `default_start` ("YYYY-MM-DDTHH:mm", Berlin) → the picker's "YYYY-MM-DD HH:mm:ss". */
export const pickerValueFromLocal = (local: string): string =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local) ? `${local.replace('T', ' ')}:00` : '';

interface EventDateTimeInputProps {
  label: 'Beginn' | 'Ende';
  value: string;
  onChange: (value: string) => void;
  onClose?: () => void;
  error?: string;
  disabled?: boolean;
  required?: boolean;
  name?: string;
}

/** Date and time of an event, German calendar (week starts Monday), 24-hour clock. */
export function EventDateTimeInput({
  label,
  value,
  onChange,
  onClose,
  error,
  disabled,
  required,
  name,
}: EventDateTimeInputProps) {
  return (
    <GermanDates>
      <DateTimePicker
        label={label}
        name={name}
        placeholder="TT.MM.JJJJ hh:mm"
        valueFormat="DD.MM.YYYY HH:mm"
        value={toPickerValue(value)}
        onChange={(next) => onChange(next ?? '')}
        onDropdownClose={onClose}
        error={error}
        disabled={disabled}
        withAsterisk={required}
        clearable
        leftSection={<IconCalendarEvent size={18} aria-hidden />}
        clearButtonProps={{ 'aria-label': `${label} leeren` }}
        submitButtonProps={{ 'aria-label': `${label} übernehmen` }}
        timePickerProps={{ hoursInputLabel: 'Stunden', minutesInputLabel: 'Minuten' }}
        previousLabel="Vorheriger Monat"
        nextLabel="Nächster Monat"
        popoverProps={{ withinPortal: true }}
        // The default placeholder grey is too light for WCAG AA on white.
        styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
      />
    </GermanDates>
  );
}
