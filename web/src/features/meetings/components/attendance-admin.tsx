import { useState } from 'react';
import { Paper, SimpleGrid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { AttendanceEntry, AttendanceList, AttendanceStatus } from '@gremienportal/contracts/meetings';
import { MemberListActions } from '../../../components/member-list-actions';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { reminderQuestion } from '../../../components/reminder-question';
import { ShownFilter, type ShownOption } from '../../../components/shown-filter';
import { useRefetchAt } from '../../../components/use-refetch-at';
import { PageSection } from '../../../components/page-section';
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
  const list = useQuery(attendanceListQueryOptions(event.id));
  const reminder = useSendReminder(event.id);
  const [shown, setShown] = useState<Shown>('alle');
  useRefetchAt(list.data?.reminder_available_at ?? null, list.refetch);

  const entries = list.data ? list.data.entries.filter((entry) => matches(entry, shown)).sort(byName) : [];

  return (
    <PageSection title="Teilnahme" description="Nur für Admins sichtbar">
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
          <MemberListActions
            list={list.data}
            onExport={() => exportAttendanceCsv(event.id)}
            exportFailure="Die Teilnahmeliste konnte nicht exportiert werden."
            reminder={reminder}
            pending={list.data.counts.offen}
            nobodyNote="Alle haben geantwortet."
            question={reminderQuestion(list.data.counts.offen, 'Antwort', 'Zu- oder Absage')}
          />
          <ShownFilter options={SHOWN_OPTIONS} value={shown} onChange={setShown} />
          <AttendanceEntries entries={entries} />
        </>
      )}
    </PageSection>
  );
}
