import { useState } from 'react';
import { Alert, Box, Button, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { Motion } from '@gremienportal/contracts/resolutions';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { PageSection } from '../../../components/page-section';
import { errorMessage } from '../../../lib/api-client';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useDeclareConflict } from '../resolutions.api';
import { mayNoteConflict, participationText } from '../motions.rules';

type Entry = NonNullable<Motion['electorate']>[number];

// No minimum width: the cells wrap (a date above its time), so the table fits its frame from a
// tablet's width on; below 48em each member is a block of its own.
const TABLE = { width: '100%', borderCollapse: 'collapse' } as const;
const CELL = {
  textAlign: 'left',
  padding: '6px 8px',
  borderBottom: '1px solid var(--mantine-color-gray-3)',
  verticalAlign: 'top',
} as const;
const HEAD = { ...CELL, fontWeight: 700, borderBottom: '2px solid var(--mantine-color-gray-4)' } as const;

const when = (iso: string | null) => (iso ? `${formatDateTime(iso)} Uhr` : '–');
const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** "08.12.2026, 18:00 Uhr" in a cell: the time goes below the date where the column is narrow. */
function When({ iso }: { iso: string | null }) {
  if (!iso) return <>–</>;
  return (
    <>
      <span style={NOWRAP}>{formatDate(iso)},</span>{' '}
      <span style={NOWRAP}>{formatDateTime(iso).slice(12)} Uhr</span>
    </>
  );
}

const yes = (value: boolean) => (value ? 'Ja' : '–');

/**
 * The delivery table for the Vorsitz and admins: who may vote, when the mail went out and the
 * motion was first opened, whether they voted (never how, in a secret vote), objected or are
 * conflicted. While the vote runs the Vorsitz may note another member's conflict here. On a phone
 * each member is a short block instead of a row.
 */
export function ElectorateTable({ motion, noteConflicts }: { motion: Motion; noteConflicts: boolean }) {
  const electorate = motion.electorate ?? [];
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);
  const declare = useDeclareConflict(motion.id);
  const [error, setError] = useState<string | null>(null);
  const umlauf = motion.procedure === 'umlauf';
  // Mails go out for an Umlaufverfahren; a meeting's vote shows the column only if some did.
  const mailed = umlauf || electorate.some((entry) => entry.mailed_at !== null);

  const handleConflict = (entry: Entry) =>
    openConfirmDialog({
      title: 'Befangenheit vermerken?',
      message: `${entry.name} nimmt dann wegen eines Interessenkonflikts an dieser Abstimmung nicht teil${
        entry.voted && motion.mode !== 'geheim' ? '; die bereits abgegebene Stimme wird gelöscht' : ''
      }.`,
      confirmLabel: 'Befangenheit vermerken',
      onConfirm: () => {
        setError(null);
        // The toast ("Die Befangenheit von … ist vermerkt.") comes from the hook.
        declare.mutate(
          { user_id: entry.user_id },
          {
            onError: (failure) =>
              setError(errorMessage(failure, 'Die Befangenheit konnte nicht vermerkt werden.')),
          },
        );
      },
    });

  const action = (entry: Entry) =>
    noteConflicts && mayNoteConflict(motion, entry) ? (
      <Button
        size="compact-sm"
        variant="subtle"
        onClick={() => handleConflict(entry)}
        aria-label={`Befangenheit von ${entry.name} vermerken`}
        loading={declare.isPending && declare.variables?.user_id === entry.user_id}
      >
        vermerken
      </Button>
    ) : null;

  return (
    <PageSection
      title="Stimmberechtigte und Zustellung"
      description={electorate.length > 0 ? participationText(electorate) : undefined}
    >
      {electorate.length === 0 ? (
        <Text size="sm" c="dimmed">
          Die Stimmberechtigten werden beim Öffnen der Abstimmung festgelegt.
        </Text>
      ) : phone ? (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {electorate.map((entry) => (
            <li key={entry.user_id}>
              <Text fw={600}>{entry.name}</Text>
              <Text size="sm">
                {mailed ? `Mail versandt: ${when(entry.mailed_at)} · ` : ''}
                Zuerst geöffnet: {when(entry.first_opened_at)}
              </Text>
              <Text size="sm">
                Abgestimmt: {yes(entry.voted)}
                {umlauf ? ` · Widersprochen: ${yes(entry.objected)}` : ''} · Befangen:{' '}
                {action(entry) ?? yes(entry.conflicted)}
              </Text>
            </li>
          ))}
        </Stack>
      ) : (
        // A plain table: Mantine's would split its chunk out of the explorer's first load.
        <Box style={{ overflowX: 'auto' }}>
          <table style={TABLE}>
            <thead>
              <tr>
                <th scope="col" style={HEAD}>
                  Name
                </th>
                {mailed ? (
                  <th scope="col" style={HEAD}>
                    Mail versandt
                  </th>
                ) : null}
                <th scope="col" style={HEAD}>
                  Zuerst geöffnet
                </th>
                <th scope="col" style={HEAD}>
                  Abgestimmt
                </th>
                {umlauf ? (
                  <th scope="col" style={HEAD}>
                    Widersprochen
                  </th>
                ) : null}
                <th scope="col" style={HEAD}>
                  Befangen
                </th>
              </tr>
            </thead>
            <tbody>
              {electorate.map((entry) => (
                <tr key={entry.user_id}>
                  <th scope="row" style={{ ...CELL, fontWeight: 500 }}>
                    {entry.name}
                  </th>
                  {mailed ? (
                    <td style={CELL}>
                      <When iso={entry.mailed_at} />
                    </td>
                  ) : null}
                  <td style={CELL}>
                    <When iso={entry.first_opened_at} />
                  </td>
                  <td style={CELL}>{yes(entry.voted)}</td>
                  {umlauf ? <td style={CELL}>{yes(entry.objected)}</td> : null}
                  <td style={CELL}>{action(entry) ?? yes(entry.conflicted)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Box>
      )}
      {error ? (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setError(null)}>
          {error}
        </Alert>
      ) : null}
    </PageSection>
  );
}
