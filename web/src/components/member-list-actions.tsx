import { Group } from '@mantine/core';
import { CsvExportButton } from './csv-export-button';
import { ReminderButton, type ReminderButtonProps } from './reminder-button';

interface MemberListActionsProps extends Omit<
  ReminderButtonProps,
  'sentAt' | 'availableAt' | 'failureMessage'
> {
  /** The list's reminder state, as the server sends it. */
  list: { reminder_sent_at: string | null; reminder_available_at: string | null };
  onExport: () => Promise<void>;
  exportFailure: string;
}

/** The two actions above an admins' member list (Teilnahme, Kenntnisnahme): CSV and reminder. */
export function MemberListActions({ list, onExport, exportFailure, ...reminder }: MemberListActionsProps) {
  return (
    <Group gap="sm" align="flex-start">
      <CsvExportButton onExport={onExport} failureMessage={exportFailure} />
      <ReminderButton
        {...reminder}
        sentAt={list.reminder_sent_at}
        availableAt={list.reminder_available_at}
        failureMessage="Die Erinnerung konnte nicht gesendet werden."
      />
    </Group>
  );
}
