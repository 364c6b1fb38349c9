import { Link } from 'react-router';
import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Motion } from '@gremienportal/contracts/resolutions';
import { PageSection } from '../../../components/page-section';
import { listOfNames } from '../../../lib/plural';
import { resolutionQueryOptions } from '../resolutions.api';
import { conflictsText, countsText, type VoteChoice } from '../motions.rules';
import { CHOICE_LABELS } from '../resolution-labels';
import { ResultBadge } from './motion-state-badge';

const CHOICES: readonly VoteChoice[] = ['ja', 'nein', 'enthaltung'];

/** The Beschlussbuch entry's page. */
export const resolutionPath = (id: number) => `/beschluesse/${id}`;

/** The three counts as large figures, each named. */
export function CountFigures({ counts }: { counts: Record<VoteChoice, number> }) {
  return (
    <SimpleGrid cols={3} spacing="sm" maw={480} aria-label={`Stimmen: ${countsText(counts)}`} role="group">
      {CHOICES.map((choice) => (
        <Paper key={choice} withBorder radius="md" py="sm" px={4} ta="center">
          <Text fz={28} fw={700} lh={1.1} aria-hidden>
            {counts[choice]}
          </Text>
          <Text size="sm" aria-hidden>
            {CHOICE_LABELS[choice]}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** Namentlich: who voted how, one line per choice ("Ja: Anna Becker, Dora Dietz"). */
export function NamedVotes({ names }: { names: NonNullable<Motion['names']> }) {
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        Namentliche Abstimmung
      </Title>
      {CHOICES.map((choice) => {
        const voters = names.filter((entry) => entry.choice === choice).map((entry) => entry.name);
        return voters.length > 0 ? (
          <Text key={choice} size="sm">
            <b>{CHOICE_LABELS[choice]}:</b> {listOfNames(voters)}
          </Text>
        ) : null;
      })}
    </Stack>
  );
}

/** The established sentence and number, read from the Beschlussbuch. */
function Established({ resolutionId, number }: { resolutionId: number; number: string }) {
  const resolution = useQuery(resolutionQueryOptions(resolutionId));
  return (
    <Stack gap="xs">
      <Group gap="sm">
        {resolution.data ? <ResultBadge result={resolution.data.result} /> : null}
        <Anchor component={Link} to={resolutionPath(resolutionId)} fw={600}>
          Im Beschlussbuch: {number}
        </Anchor>
      </Group>
      {resolution.data ? <Text fw={500}>{resolution.data.reason}</Text> : null}
    </Stack>
  );
}

/** What the state says before or without a count. */
function stateNote(motion: Motion): string | null {
  switch (motion.state) {
    case 'geschlossen':
      return 'Die Abstimmung ist geschlossen. Das Ergebnis stellt der Vorsitz fest.';
    case 'widersprochen':
      return 'Das Umlaufverfahren wurde durch Widerspruch beendet; über die Vorlage wird in einer Sitzung entschieden.';
    case 'zurueckgezogen':
      return 'Die Beschlussvorlage wurde zurückgezogen.';
    default:
      return null;
  }
}

/**
 * "Ergebnis" once the vote is over: the established sentence and number, the counts, the names in
 * a named vote, who took no part for a conflict and the objections with their reasons.
 */
export function MotionResult({ motion }: { motion: Motion }) {
  const note = motion.resolution ? null : stateNote(motion);
  return (
    <PageSection title="Ergebnis">
      {motion.resolution ? (
        <Established resolutionId={motion.resolution.id} number={motion.resolution.number} />
      ) : null}
      {note ? <Text>{note}</Text> : null}
      {motion.counts ? (
        <Stack gap="xs">
          <CountFigures counts={motion.counts} />
          {motion.hand_count ? (
            <Text size="sm" c="dimmed">
              Darin per Handzeichen: {countsText(motion.hand_count)}.
            </Text>
          ) : null}
        </Stack>
      ) : null}
      {motion.names && motion.names.length > 0 ? <NamedVotes names={motion.names} /> : null}
      {motion.conflicts.length > 0 ? <Text size="sm">{conflictsText(motion.conflicts)}</Text> : null}
      {motion.objections.length > 0 ? (
        <Stack gap={4}>
          <Title order={3} size="h5">
            Widersprüche
          </Title>
          <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
            {motion.objections.map((objection) => (
              <li key={objection.name}>
                <Text size="sm">
                  <b>{objection.name}</b>
                  {objection.reason ? `: ${objection.reason}` : ' (ohne Begründung)'}
                </Text>
              </li>
            ))}
          </ul>
        </Stack>
      ) : null}
    </PageSection>
  );
}
