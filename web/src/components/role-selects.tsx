import type { Ref } from 'react';
import { MultiSelect } from '@mantine/core';

/** What react-hook-form's Controller hands to a select, plus the spec's timing and error. */
export interface SelectField<TValue> {
  name: string;
  ref: Ref<HTMLInputElement>;
  value: TValue;
  onChange: (value: TValue) => void;
  onBlur: () => void;
  error?: string;
  disabled: boolean;
}

type RoleOptions = { data: { value: string; label: string }[] };

/** Who may see a file, folder or event: a required choice of roles, clearable at once. */
export function RoleSelect({
  label,
  ...props
}: SelectField<string[]> & RoleOptions & { label: string; description: string }) {
  return (
    <MultiSelect
      label={label}
      required
      {...props}
      clearable
      clearButtonProps={{ 'aria-label': `${label} leeren` }}
    />
  );
}

/** "Benachrichtigung an": which of the chosen roles get an e-mail about something new. */
export function NotificationSelect(props: SelectField<string[]> & RoleOptions & { description: string }) {
  return (
    <MultiSelect
      label="Benachrichtigung an"
      {...props}
      clearable
      clearButtonProps={{ 'aria-label': 'Benachrichtigungen leeren' }}
    />
  );
}
