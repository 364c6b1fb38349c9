import { Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { AttendanceEntry } from '@gremienportal/contracts/meetings';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { RoleBadges } from '../../../components/role-badges';
import { formatDateTime } from '../../../lib/format';
import { AttendanceBadge } from './attendance-badge';
import classes from './attendance-entries.module.css';

const nameOf = (entry: AttendanceEntry) => `${entry.user.firstname} ${entry.user.lastname}`;
const timeOf = (entry: AttendanceEntry) =>
  entry.answered_at ? `${formatDateTime(entry.answered_at)} Uhr` : '–';

/** One card per person on a phone, where five columns would not fit 375 px. */
function EntryCard({ entry }: { entry: AttendanceEntry }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
          {nameOf(entry)}
        </Title>
        <div>
          <AttendanceBadge status={entry.status} />
        </div>
        {entry.answered_at ? (
          <Text size="sm" c="dimmed">
            Geantwortet am {timeOf(entry)}
          </Text>
        ) : null}
        <RoleBadges roles={entry.user.roles} />
        {entry.comment ? (
          <Text size="sm" className={classes.comment}>
            Kommentar: {entry.comment}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The attendance list: name, roles, answer, time and comment; cards on phones. */
export function AttendanceEntries({ entries }: { entries: readonly AttendanceEntry[] }) {
  const small = useMediaQuery(SMALL_SCREEN_QUERY);
  if (entries.length === 0) {
    return <Text c="dimmed">Niemand in dieser Auswahl.</Text>;
  }
  if (small) {
    return (
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Teilnahmeliste">
        {entries.map((entry) => (
          <EntryCard key={entry.user.id} entry={entry} />
        ))}
      </Stack>
    );
  }
  return (
    <table className={classes.table} aria-label="Teilnahmeliste">
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Rollen</th>
          <th scope="col">Antwort</th>
          <th scope="col">Zeitpunkt</th>
          <th scope="col">Kommentar</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.user.id}>
            <th scope="row" className={classes.name}>
              {nameOf(entry)}
            </th>
            <td>
              <RoleBadges roles={entry.user.roles} />
            </td>
            <td className={classes.answer}>
              <AttendanceBadge status={entry.status} />
            </td>
            <td className={classes.time}>{timeOf(entry)}</td>
            <td className={classes.comment}>{entry.comment}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
