import { useEffect, useId, useState } from 'react';
import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconBellRinging } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { AttendanceEntry, AttendanceList, AttendanceStatus } from '@gremienportal/contracts/meetings';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
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

const SHOWN_OPTIONS: { value: Shown; label: string }[] = [
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

/** The list loads again when the next reminder becomes possible, so the button wakes up by itself. */
function useRefetchAt(iso: string | null, refetch: () => unknown) {
  useEffect(() => {
    if (!iso) return;
    const wait = new Date(iso).getTime() - Date.now();
    // Timers longer than about 24 days fire at once; no reminder waits that long.
    if (wait <= 0 || wait > 2 ** 31 - 1) return;
    const timer = setTimeout(() => void refetch(), wait + 500);
    return () => clearTimeout(timer);
  }, [iso, refetch]);
}

function ReminderButton({ eventId, list }: { eventId: number; list: AttendanceList }) {
  const noteId = useId();
  const reminder = useSendReminder(eventId);
  const [error, setError] = useState<string | null>(null);
  const waiting =
    list.reminder_available_at !== null && new Date(list.reminder_available_at).getTime() > Date.now();
  const nobody = list.counts.offen === 0;
  const note = waiting
    ? `Die nächste Erinnerung ist ab ${formatDateTime(list.reminder_available_at)} Uhr möglich.`
    : nobody
      ? 'Alle haben geantwortet.'
      : null;

  const handleClick = () =>
    openConfirmDialog({
      title: 'Erinnerung senden?',
      message: `${plural(list.counts.offen, 'Person', 'Personen')} ohne Antwort ${list.counts.offen === 1 ? 'erhält' : 'erhalten'} eine E-Mail mit der Bitte um Zu- oder Absage.`,
      confirmLabel: 'Erinnerung senden',
      danger: false,
      onConfirm: () => {
        setError(null);
        reminder.mutate(undefined, {
          onSuccess: (res) => notifications.show({ color: 'green', message: res.message }),
          onError: (failure) =>
            setError(errorMessage(failure, 'Die Erinnerung konnte nicht gesendet werden.')),
        });
      },
    });

  return (
    <Stack gap={4}>
      <Group gap="sm">
        <Button
          variant="light"
          leftSection={<IconBellRinging size={18} aria-hidden />}
          onClick={handleClick}
          loading={reminder.isPending}
          disabled={waiting || nobody}
          aria-describedby={note ? noteId : undefined}
        >
          Erinnerung senden
        </Button>
      </Group>
      {list.reminder_sent_at ? (
        <Text size="sm" c="dimmed">
          Letzte Erinnerung: {formatDateTime(list.reminder_sent_at)} Uhr.
        </Text>
      ) : null}
      {note ? (
        <Text size="sm" c="dimmed" id={noteId}>
          {note}
        </Text>
      ) : null}
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}

function ExportButton({ eventId }: { eventId: number }) {
  const [exporting, setExporting] = useState(false);
  const handleExport = async () => {
    setExporting(true);
    try {
      await exportAttendanceCsv(eventId);
    } catch (error) {
      notifications.show({
        color: 'red',
        message: errorMessage(error, 'Die Teilnahmeliste konnte nicht exportiert werden.'),
      });
    } finally {
      setExporting(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconFileSpreadsheet size={18} aria-hidden />}
      loading={exporting}
      onClick={() => void handleExport()}
    >
      Als CSV exportieren
    </Button>
  );
}

/** "Teilnahme" on the event page, for admins: counts, the list, CSV export and the reminder. */
export function AttendanceAdmin({ event }: { event: Pick<PortalEvent, 'id'> }) {
  const headingId = useId();
  const list = useQuery(attendanceListQueryOptions(event.id));
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
              <ExportButton eventId={event.id} />
              <ReminderButton eventId={event.id} list={list.data} />
            </Group>
            <Group gap={6} role="group" aria-label="Anzeigen">
              {SHOWN_OPTIONS.map((option) => (
                <Button
                  key={option.value}
                  size="compact-sm"
                  variant={shown === option.value ? 'filled' : 'default'}
                  aria-pressed={shown === option.value}
                  onClick={() => setShown(option.value)}
                >
                  {option.label}
                </Button>
              ))}
            </Group>
            <AttendanceEntries entries={entries} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
