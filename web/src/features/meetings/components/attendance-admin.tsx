import { useId, useState } from 'react';
import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { AttendanceEntry, AttendanceList, AttendanceStatus } from '@gremienportal/contracts/meetings';
import { CsvExportButton } from '../../../components/csv-export-button';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { ReminderButton } from '../../../components/reminder-button';
import { reminderQuestion } from '../../../components/reminder-question';
import { ShownFilter, type ShownOption } from '../../../components/shown-filter';
import { useRefetchAt } from '../../../components/use-refetch-at';
import { plural } from '../../../lib/plural';
import { attendanceListQueryOptions, exportAttendanceCsv, useSendReminder } from '../attendance.api';
import { AttendanceEntries } from './attendance-entries';

type Counts = AttendanceList['counts'];
type Shown = 'alle' | AttendanceStatus | 'offen';

/** "3 Zusagen", "1 Absage", "2 Vielleicht", "1 Antwort offen": each count with the noun that agrees. */
export function countTexts(counts: Counts): { key: keyof Counts; text: string }[] {
  return [
    { key: 'zugesagt', text: plural(counts.zugesagt, 'Zusage', 'Zusagen') },
    { key: 'abgesagt', text: plural(counts.abgesagt, 'Absage', 'Absagen') },
    { key: 'vielleicht', text: plural(counts.vielleicht, 'Vielleicht', 'Vielleicht') },
    { key: 'offen', text: plural(counts.offen, 'Antwort offen', 'Antworten offen') },
  ];
}

const SHOWN_OPTIONS: ShownOption<Shown>[] = [
  { value: 'alle', label: 'Alle' },
  { value: 'zugesagt', label: 'Zusagen' },
  { value: 'abgesagt', label: 'Absagen' },
  { value: 'vielleicht', label: 'Vielleicht' },
  { value: 'offen', label: 'Ohne Antwort' },
];

const collator = new Intl.Collator('de-DE', { sensitivity: 'base', numeric: true });
const byName = (a: AttendanceEntry, b: AttendanceEntry) =>
  collator.compare(a.user.lastname, b.user.lastname) || collator.compare(a.user.firstname, b.user.firstname);

function matches(entry: AttendanceEntry, shown: Shown): boolean {
  if (shown === 'alle') return true;
  return shown === 'offen' ? entry.status === null : entry.status === shown;
}

/** "Teilnahme" on the event page, for admins: counts, the list, CSV export and the reminder. */
export function AttendanceAdmin({ event }: { event: Pick<PortalEvent, 'id'> }) {
  const headingId = useId();
  const list = useQuery(attendanceListQueryOptions(event.id));
  const reminder = useSendReminder(event.id);
  const [shown, setShown] = useState<Shown>('alle');
  useRefetchAt(list.data?.reminder_available_at ?? null, list.refetch);

  const entries = list.data ? list.data.entries.filter((entry) => matches(entry, shown)).sort(byName) : [];

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      component="section"
      aria-labelledby={headingId}
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id={headingId}>
            Teilnahme
          </Title>
          <Text size="sm" c="dimmed">
            Nur für Admins sichtbar
          </Text>
        </div>
        {list.isPending ? (
          <LoadingState />
        ) : list.isError ? (
          <ErrorState detail={list.error.message} onRetry={() => void list.refetch()} />
        ) : (
          <>
            <SimpleGrid
              component="ul"
              cols={{ base: 2, sm: 4 }}
              spacing="xs"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label="Antworten gezählt"
            >
              {countTexts(list.data.counts).map(({ key, text }) => (
                <Paper component="li" key={key} withBorder radius="md" px="sm" py="xs" fw={600}>
                  {text}
                </Paper>
              ))}
            </SimpleGrid>
            <Group gap="sm" align="flex-start">
              <CsvExportButton
                onExport={() => exportAttendanceCsv(event.id)}
                failureMessage="Die Teilnahmeliste konnte nicht exportiert werden."
              />
              <ReminderButton
                reminder={reminder}
                sentAt={list.data.reminder_sent_at}
                availableAt={list.data.reminder_available_at}
                pending={list.data.counts.offen}
                nobodyNote="Alle haben geantwortet."
                question={reminderQuestion(list.data.counts.offen, 'Antwort', 'Zu- oder Absage')}
                failureMessage="Die Erinnerung konnte nicht gesendet werden."
              />
            </Group>
            <ShownFilter options={SHOWN_OPTIONS} value={shown} onChange={setShown} />
            <AttendanceEntries entries={entries} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
