import { Link } from 'react-router';
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import type { Motion } from '@gremienportal/contracts/resolutions';
import { awaitsOwnVote, countsText, deadlineText } from '../motions.rules';
import { modeName, PROCEDURE_LABELS } from '../resolution-labels';
import { MotionStateBadge } from './motion-state-badge';

const LIST = { listStyle: 'none', margin: 0, padding: 0 } as const;
const SEPARATED = {
  borderTop: '1px solid var(--mantine-color-gray-3)',
  marginTop: 'var(--mantine-spacing-sm)',
  paddingTop: 'var(--mantine-spacing-sm)',
} as const;

/** A motion's page. */
export const motionPath = (id: number) => `/beschluesse/vorlagen/${id}`;

/** One motion of a list: its title as the link, its state, how and until when it is voted. */
export function MotionListItem({
  motion,
  showCommittee = false,
  first = true,
}: {
  motion: Motion;
  showCommittee?: boolean;
  /** The first of a list has no line above it. */
  first?: boolean;
}) {
  const details = [
    showCommittee ? motion.committee.name : null,
    motion.procedure ? PROCEDURE_LABELS[motion.procedure] : null,
    modeName(motion.mode),
  ].filter((part): part is string => part !== null);
  return (
    <li style={first ? undefined : SEPARATED}>
      <Stack gap={4}>
        <Group gap="sm" wrap="wrap" align="center">
          <Anchor component={Link} to={motionPath(motion.id)} fw={600} style={{ overflowWrap: 'anywhere' }}>
            {motion.title}
          </Anchor>
          <MotionStateBadge state={motion.state} />
          {awaitsOwnVote(motion) ? (
            <Badge color="blue.9" variant="filled" component="span">
              Ihre Stimme wird erbeten
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          {details.join(' · ')}
        </Text>
        {motion.state === 'abstimmung' && motion.deadline ? (
          <Text size="sm" fw={500}>
            {deadlineText(motion.deadline)}
          </Text>
        ) : null}
        {motion.counts ? <Text size="sm">{countsText(motion.counts)}</Text> : null}
      </Stack>
    </li>
  );
}

/** Motions as a list (role="list": without bullets it stays a list for Safari's screen reader). */
export function MotionList({
  motions,
  label,
  showCommittee = false,
}: {
  motions: readonly Motion[];
  label: string;
  showCommittee?: boolean;
}) {
  return (
    <ul style={LIST} role="list" aria-label={label}>
      {motions.map((motion, index) => (
        <MotionListItem key={motion.id} motion={motion} showCommittee={showCommittee} first={index === 0} />
      ))}
    </ul>
  );
}
