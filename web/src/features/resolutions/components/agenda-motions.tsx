import { Link } from 'react-router';
import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconGavel, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Motion } from '@gremienportal/contracts/resolutions';
import { useAuth } from '../../../lib/auth';
import { eventMotionsQueryOptions, ownMembershipsQueryOptions } from '../resolutions.api';
import { PageSection } from '../../../components/page-section';
import { awaitsOwnVote, countsText, deadlineText, motionControls } from '../motions.rules';
import { writesAnyMotions } from '../resolutions.rules';
import { modeName } from '../resolution-labels';
import { Ballot } from './ballot';
import { motionCreatePath } from './create-motion-button';
import { motionPath } from './motion-list';
import { MotionStateBadge, ResultBadge } from './motion-state-badge';

/** One motion under its agenda item: state, and while the vote runs the ballot itself. */
function MeetingMotion({ motion }: { motion: Motion }) {
  const controls = motionControls(motion);
  const running = motion.state === 'abstimmung';
  const ballot = running && motion.own.elector && !motion.own.conflicted && motion.procedure === 'sitzung';
  return (
    <Paper withBorder radius="md" p="sm" component="li">
      <Stack gap="xs">
        <Group gap="sm" wrap="wrap">
          <Text fw={600} component="span" style={{ overflowWrap: 'anywhere' }}>
            Beschlussvorlage:{' '}
            <Anchor component={Link} to={motionPath(motion.id)} inherit>
              {motion.title}
            </Anchor>
          </Text>
          <MotionStateBadge state={motion.state} />
          {motion.resolution ? (
            <>
              <ResultBadge result={motion.resolution.result} />
              <Text size="sm" component="span">
                {motion.resolution.number}
              </Text>
            </>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          {modeName(motion.mode)}
          {running && motion.deadline ? ` · ${deadlineText(motion.deadline)}` : ''}
        </Text>
        {ballot ? <Ballot motion={motion} open={controls.ballot} /> : null}
        {running && !ballot && awaitsOwnVote(motion) ? (
          <Group>
            <Button
              component={Link}
              to={motionPath(motion.id)}
              size="md"
              leftSection={<IconGavel size={20} aria-hidden />}
            >
              Jetzt abstimmen
            </Button>
          </Group>
        ) : null}
        {motion.counts ? <Text size="sm">Stimmen: {countsText(motion.counts)}</Text> : null}
        {controls.open || controls.close || controls.establish ? (
          <Anchor component={Link} to={motionPath(motion.id)} size="sm">
            {controls.open
              ? 'Abstimmung öffnen'
              : controls.close
                ? 'Abstimmung leiten'
                : 'Ergebnis feststellen'}
          </Anchor>
        ) : null}
      </Stack>
    </Paper>
  );
}

interface AgendaMotionsProps {
  eventId: number;
  /** The item's motions; null: the meeting's motions that belong to no item in `placedItemIds`. */
  agendaItemId: number | null;
  /** The item's number ("2.1"), naming it in the create link. */
  itemNumber?: string;
  /** The items shown above (for `agendaItemId` null). */
  placedItemIds?: readonly number[];
  /** Without an agenda: the motions in a section of their own. */
  standalone?: boolean;
  /** During the meeting: drafts are followed too, so the ballot appears when the vote opens. */
  live: boolean;
}

/**
 * Under an agenda item: its Beschlussvorlagen with their state, the ballot while a meeting's vote
 * runs (the list is followed every few seconds then), and for those who write motions the way to
 * write one for this item. Loaded apart from the event page, with the meeting's list of motions;
 * without motions for the member (or when they fail to load) nothing is shown.
 */
export default function AgendaMotions({
  eventId,
  agendaItemId,
  itemNumber,
  placedItemIds = [],
  standalone = false,
  live,
}: AgendaMotionsProps) {
  const { isAdmin } = useAuth();
  const memberships = useQuery({
    ...ownMembershipsQueryOptions(),
    enabled: !isAdmin && agendaItemId !== null,
  });
  const list = useQuery(eventMotionsQueryOptions(eventId, live));
  const writer = agendaItemId !== null && writesAnyMotions(isAdmin, memberships.data ?? []);
  const motions = (list.data ?? []).filter((motion) =>
    agendaItemId === null
      ? motion.agenda_item_id === null || !placedItemIds.includes(motion.agenda_item_id)
      : motion.agenda_item_id === agendaItemId,
  );
  if (motions.length === 0 && !writer) return null;
  const content = (
    <Stack gap="xs">
      {motions.length > 0 ? (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {motions.map((motion) => (
            <MeetingMotion key={motion.id} motion={motion} />
          ))}
        </Stack>
      ) : null}
      {writer ? (
        <Group>
          <Button
            component={Link}
            to={motionCreatePath({ eventId, agendaItemId })}
            variant="subtle"
            size="compact-sm"
            leftSection={<IconPlus size={16} aria-hidden />}
            aria-label={itemNumber ? `Beschlussvorlage zu TOP ${itemNumber} anlegen` : undefined}
          >
            Beschlussvorlage anlegen
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
  if (standalone) return <PageSection title="Beschlussvorlagen">{content}</PageSection>;
  if (agendaItemId !== null) return content;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Weitere Beschlussvorlagen dieser Sitzung
      </Title>
      {content}
    </Stack>
  );
}
