import type { AttendanceEntry } from '@gremienportal/contracts/meetings';
import { PeopleList } from '../../../components/people-list';
import { AttendanceBadge } from './attendance-badge';

/** The attendance list: name, roles, answer, time and comment; cards on phones. */
export function AttendanceEntries({ entries }: { entries: readonly AttendanceEntry[] }) {
  return (
    <PeopleList
      label="Teilnahmeliste"
      statusTitle="Antwort"
      atLabel="Geantwortet am"
      noteTitle="Kommentar"
      rows={entries.map((entry) => ({
        ...entry.user,
        status: <AttendanceBadge status={entry.status} />,
        at: entry.answered_at,
        note: entry.comment,
      }))}
    />
  );
}
