import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { formatDateTime } from '../lib/format';
import { SMALL_SCREEN_QUERY } from './data-table-defaults';
import { RoleBadges } from './role-badges';
import classes from './people-list.module.css';

/** One person of an admins' list (attendance, Kenntnisnahme) with their state. */
export interface PersonRow {
  id: number;
  firstname: string;
  lastname: string;
  roles: readonly string[];
  /** The state as a badge. */
  status: ReactNode;
  /** When they answered or confirmed (ISO), or null. */
  at: string | null;
  /** The optional last column (e.g. the comment). */
  note?: string | null;
}

interface PeopleListProps {
  rows: readonly PersonRow[];
  /** The list's accessible name, e.g. "Teilnahmeliste". */
  label: string;
  /** The state column's title, e.g. "Antwort". */
  statusTitle: string;
  /** The phone card's time line, e.g. "Geantwortet am". */
  atLabel: string;
  /** The title of the optional last column (e.g. "Kommentar"); without it there is none. */
  noteTitle?: string;
}

const nameOf = (row: PersonRow) => `${row.firstname} ${row.lastname}`;
const timeOf = (row: PersonRow) => (row.at ? `${formatDateTime(row.at)} Uhr` : '–');

/** One card per person on a phone, where five columns would not fit 375 px. */
function PersonCard({ row, atLabel, noteTitle }: { row: PersonRow; atLabel: string; noteTitle?: string }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap={6}>
        <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
          {nameOf(row)}
        </Title>
        <div>{row.status}</div>
        {row.at ? (
          <Text size="sm" c="dimmed">
            {atLabel} {timeOf(row)}
          </Text>
        ) : null}
        <RoleBadges roles={row.roles} />
        {noteTitle && row.note ? (
          <Text size="sm" className={classes.comment}>
            {noteTitle}: {row.note}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** The people of an admins' list: name, roles, state, time (and a note); cards on phones. */
export function PeopleList({ rows, label, statusTitle, atLabel, noteTitle }: PeopleListProps) {
  const small = useMediaQuery(SMALL_SCREEN_QUERY);
  if (rows.length === 0) {
    return <Text c="dimmed">Niemand in dieser Auswahl.</Text>;
  }
  if (small) {
    return (
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
        {rows.map((row) => (
          <PersonCard key={row.id} row={row} atLabel={atLabel} noteTitle={noteTitle} />
        ))}
      </Stack>
    );
  }
  return (
    <table className={classes.table} aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Rollen</th>
          <th scope="col">{statusTitle}</th>
          <th scope="col">Zeitpunkt</th>
          {noteTitle ? <th scope="col">{noteTitle}</th> : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <th scope="row" className={classes.name}>
              {nameOf(row)}
            </th>
            <td>
              <RoleBadges roles={row.roles} />
            </td>
            <td className={classes.answer}>{row.status}</td>
            <td className={classes.time}>{timeOf(row)}</td>
            {noteTitle ? <td className={classes.comment}>{row.note}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
