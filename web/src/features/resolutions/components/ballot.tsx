import { useState } from 'react';
import { Alert, Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleMinus, IconCircleX, IconLock } from '@tabler/icons-react';
import { CHOICES, type Motion } from '@gremienportal/contracts/resolutions';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useVote } from '../resolutions.api';
import { voteChangeable, type VoteChoice } from '../motions.rules';
import { CHOICE_COLORS, CHOICE_LABELS } from '../resolution-labels';

const CHOICE_ICONS: Record<VoteChoice, typeof IconCircleCheck> = {
  ja: IconCircleCheck,
  nein: IconCircleX,
  enthaltung: IconCircleMinus,
};

export const VOTE_FAILED = 'Ihre Stimme konnte nicht gespeichert werden.';
export const SECRET_NOTE = 'Ihre Stimme ist geheim; sie kann nicht geändert werden.';

/** Large enough to hit without looking twice; on a phone one per line. */
const CHOICE_STYLES = {
  root: { height: 'auto', minHeight: '4rem', paddingBlock: 'var(--mantine-spacing-sm)' },
  label: { fontSize: '1.25rem' },
};

/** What the member has voted so far, as the ballot states it above its buttons. */
function OwnVote({
  motion,
  written,
  writtenChoice,
}: {
  motion: Motion;
  written: boolean;
  writtenChoice: VoteChoice | null;
}) {
  if (writtenChoice) {
    return (
      <Text fw={600}>
        Ihre schriftliche Stimme: {CHOICE_LABELS[writtenChoice]}. Sie zählt, sobald die Abstimmung geöffnet
        wird.
      </Text>
    );
  }
  // Before the vote opens the motion does not tell a written vote (there is no electorate yet).
  if (written) return null;
  if (!motion.own.voted) return <Text>Sie haben noch nicht abgestimmt.</Text>;
  if (motion.mode === 'geheim' || motion.own.choice === null) {
    return (
      <Text fw={600}>
        <IconLock size={18} aria-hidden style={{ verticalAlign: '-3px', marginRight: 6 }} />
        Sie haben abgestimmt. Ihre Stimme ist geheim.
      </Text>
    );
  }
  return <Text fw={600}>Ihre Stimme: {CHOICE_LABELS[motion.own.choice]}</Text>;
}

interface BallotProps {
  motion: Motion;
  /** Before a meeting's vote opens: a written vote (schriftliche Stimmabgabe). */
  written?: boolean;
  /** The buttons are shown (the member may vote now); otherwise only the own vote. */
  open: boolean;
}

/**
 * The ballot: three large buttons Ja, Nein, Enthaltung (one below the other on a phone), the own
 * vote above them and the server's confirmation below. An open or named vote is cast with one
 * click and may be changed until the vote closes; a secret one is asked about first, since it
 * cannot be changed.
 */
export function Ballot({ motion, written = false, open }: BallotProps) {
  const vote = useVote(motion.id);
  const [confirmation, setConfirmation] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The answer to a written vote does not carry the choice (no electorate yet): kept from the click.
  const [writtenChoice, setWrittenChoice] = useState<VoteChoice | null>(null);
  const secret = motion.mode === 'geheim';
  const current = written ? writtenChoice : motion.own.choice;

  const send = (choice: VoteChoice) => {
    setError(null);
    setConfirmation(null);
    vote.mutate(
      { choice },
      {
        onSuccess: (res) => {
          if (written) setWrittenChoice(choice);
          setConfirmation(
            `${res.message ?? 'Ihre Stimme wurde gespeichert.'} Ihre Stimme: ${CHOICE_LABELS[choice]}.`,
          );
        },
        onError: (failure) => setError(errorMessage(failure, VOTE_FAILED)),
      },
    );
  };

  const handleChoose = (choice: VoteChoice) => {
    if (!secret) return send(choice);
    openConfirmDialog({
      title: `Mit „${CHOICE_LABELS[choice]}“ stimmen?`,
      message: (
        <Stack gap="xs">
          <Text>
            Sie stimmen zu „{motion.title}“ mit <b>{CHOICE_LABELS[choice]}</b>.
          </Text>
          <Text>{SECRET_NOTE}</Text>
        </Stack>
      ),
      confirmLabel: `Mit „${CHOICE_LABELS[choice]}“ stimmen`,
      danger: false,
      onConfirm: () => send(choice),
    });
  };

  const note = written
    ? 'Die Abstimmung in der Sitzung ist noch nicht geöffnet. Sie können vorab schriftlich abstimmen; Ihre Stimme zählt, sobald die Abstimmung geöffnet wird, und lässt sich bis dahin ändern.'
    : secret
      ? SECRET_NOTE
      : motion.mode === 'namentlich'
        ? 'Namentliche Abstimmung: Ihr Name und Ihre Stimme werden im Ergebnis genannt. Sie können Ihre Stimme ändern, bis die Abstimmung geschlossen wird.'
        : voteChangeable(motion)
          ? 'Sie können Ihre Stimme ändern, bis die Abstimmung geschlossen wird.'
          : '';

  return (
    <Stack gap="sm">
      <OwnVote motion={motion} written={written} writtenChoice={writtenChoice} />
      {open ? (
        <>
          {note ? (
            <Text size="sm" c="dimmed">
              {note}
            </Text>
          ) : null}
          <SimpleGrid
            cols={{ base: 1, xs: 3 }}
            spacing="sm"
            role="group"
            aria-label={`Ihre Stimme zu „${motion.title}“`}
          >
            {CHOICES.map((choice) => {
              const Icon = CHOICE_ICONS[choice];
              const chosen = current === choice;
              return (
                <Button
                  key={choice}
                  size="xl"
                  styles={CHOICE_STYLES}
                  color={CHOICE_COLORS[choice]}
                  variant={chosen ? 'filled' : 'outline'}
                  aria-pressed={chosen}
                  leftSection={<Icon size={26} aria-hidden />}
                  loading={vote.isPending && vote.variables?.choice === choice}
                  disabled={vote.isPending && vote.variables?.choice !== choice}
                  onClick={() => handleChoose(choice)}
                >
                  {CHOICE_LABELS[choice]}
                </Button>
              );
            })}
          </SimpleGrid>
        </>
      ) : null}
      <div role="status" aria-live="polite">
        {confirmation ? (
          <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />}>
            {confirmation}
          </Alert>
        ) : null}
      </div>
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
