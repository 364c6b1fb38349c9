import { MultiSelect } from '@mantine/core';
import type { ControlledField } from '../lib/forms';

type RoleOptions = { data: { value: string; label: string }[] };

/** Who may see a file, folder or event: a required choice of roles, clearable at once. */
export function RoleSelect({
  label,
  ...props
}: ControlledField<string[]> & RoleOptions & { label: string; description: string }) {
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

interface NotificationSelectProps extends ControlledField<string[]>, RoleOptions {
  /** Whether roles are chosen; until then there is no one to notify and the select is off. */
  rolesChosen: boolean;
  /** The hint while no roles are chosen, e.g. "Zuerst Rollen wählen". */
  noRolesHint: string;
  /** The hint once roles are chosen, e.g. "Diese Rollen erhalten eine E-Mail zum neuen Event". */
  hint: string;
}

/** "Benachrichtigung an": which of the chosen roles get an e-mail about something new. */
export function NotificationSelect({
  rolesChosen,
  noRolesHint,
  hint,
  disabled,
  ...props
}: NotificationSelectProps) {
  return (
    <MultiSelect
      label="Benachrichtigung an"
      description={rolesChosen ? hint : noRolesHint}
      {...props}
      disabled={disabled || !rolesChosen}
      clearable
      clearButtonProps={{ 'aria-label': 'Benachrichtigungen leeren' }}
    />
  );
}
