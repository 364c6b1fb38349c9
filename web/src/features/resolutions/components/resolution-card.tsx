import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChecklist, IconPencilCheck } from '@tabler/icons-react';
import { FOLLOW_UP_STATE_LABELS, type Resolution } from '@gremienportal/contracts/beschlussbuch';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import { formatDate, formatDateTime } from '../../../lib/format';
import { germanDate } from '@gremienportal/contracts/committees';
import { conflictsText } from '../motions.rules';
import { modeName, PROCEDURE_LABELS } from '../resolution-labels';
import { FollowUpForm } from './follow-up-form';
import { CorrectionForm } from './correction-form';
import { CountFigures, NamedVotes, resolutionPath } from './motion-result';
import { ResultBadge } from './motion-state-badge';
import { LinkedDocuments, ResolutionText } from './motion-text';
import { motionPath } from './motion-list';

/** Where the resolution came from: the meeting (a link) or the Umlaufverfahren. */
function Source({ resolution }: { resolution: Resolution }) {
  if (resolution.event_id !== null) {
    return (
      <Anchor component={Link} to={`/events/show/${resolution.event_id}`} size="sm">
        {PROCEDURE_LABELS.sitzung}
      </Anchor>
    );
  }
  return (
    <Text size="sm" span>
      {resolution.procedure === 'umlauf' ? PROCEDURE_LABELS.umlauf : 'Ohne Sitzung'}
    </Text>
  );
}

/** The follow-up in one or two lines: who, by when, how far, and the note. */
function FollowUpSummary({ followUp }: { followUp: NonNullable<Resolution['follow_up']> }) {
  const parts = [
    followUp.responsible ? `Verantwortlich: ${followUp.responsible.name}` : 'Niemand verantwortlich',
    followUp.due_on ? `fällig am ${germanDate(followUp.due_on)}` : null,
    FOLLOW_UP_STATE_LABELS[followUp.status],
  ].filter((part): part is string => part !== null);
  return (
    <Stack gap={2}>
      <Group gap="xs">
        <Text size="sm">
          <b>Umsetzung:</b> {parts.join(' · ')}
        </Text>
        {followUp.overdue ? (
          <Badge color="red.9" variant="filled" component="span" size="md">
            Überfällig
          </Badge>
        ) : null}
      </Group>
      {followUp.note ? (
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {followUp.note}
        </Text>
      ) : null}
    </Stack>
  );
}

interface ResolutionCardProps {
  resolution: Resolution;
  /** The Beschlussbuch's list: the number links to the entry, a long text folds. */
  inList?: boolean;
  /** The office may keep the follow-up (the server decides; a refusal says why). */
  mayKeepFollowUp: boolean;
  /** The committee's Vorsitz may correct the entry. */
  mayCorrect: boolean;
  /** After a correction: e.g. go to the new entry. */
  onCorrected?: (correction: Resolution) => void;
}

/**
 * One entry of the Beschlussbuch: its number first, the date and the result, the title and the
 * exact text, how it was voted and the established sentence, where it came from, its documents, a
 * correction's link to the corrected entry, and its follow-up.
 */
export function ResolutionCard({
  resolution,
  inList = false,
  mayKeepFollowUp,
  mayCorrect,
  onCorrected,
}: ResolutionCardProps) {
  const [editing, setEditing] = useState<'follow-up' | 'correction' | null>(null);
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);
  const how = resolution.mode ? modeName(resolution.mode) : null;

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="article"
      aria-labelledby={inList ? `beschluss-${resolution.id}` : undefined}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            {inList ? (
              <Title order={3} size="h3" id={`beschluss-${resolution.id}`}>
                <Anchor component={Link} to={resolutionPath(resolution.id)} inherit>
                  {resolution.number}
                </Anchor>
                <Text span inherit c="dimmed" fw={400} fz="md">
                  {' '}
                  · {resolution.committee.name}
                </Text>
              </Title>
            ) : (
              <Text fw={600} id={`beschluss-${resolution.id}`}>
                {resolution.committee.name}
              </Text>
            )}
            <Text size="sm" c="dimmed">
              Festgestellt am{' '}
              <time dateTime={resolution.established_at}>{formatDate(resolution.established_at)}</time>
              {inList
                ? ''
                : ` um ${formatDateTime(resolution.established_at).slice(12)} Uhr von ${resolution.established_by}`}
            </Text>
          </Stack>
          <ResultBadge result={resolution.result} />
        </Group>
        {resolution.corrects ? (
          <Text size="sm" fw={600}>
            Berichtigung zu{' '}
            <Anchor component={Link} to={resolutionPath(resolution.corrects.id)}>
              {resolution.corrects.number}
            </Anchor>
          </Text>
        ) : null}
        <Text fw={700} fz="lg" style={{ overflowWrap: 'anywhere' }}>
          {resolution.title}
        </Text>
        {/* In the list a really long text folds inside its frame (no unnamed region, no cut line). */}
        <ResolutionText text={resolution.text} fold={inList} />
        <Text fw={500}>{resolution.reason}</Text>
        {!inList && resolution.counts ? <CountFigures counts={resolution.counts} /> : null}
        {!inList && resolution.names && resolution.names.length > 0 ? (
          <NamedVotes names={resolution.names} />
        ) : null}
        {resolution.conflicts.length > 0 ? (
          <Text size="sm">{conflictsText(resolution.conflicts)}</Text>
        ) : null}
        <Group gap="xs" wrap="wrap">
          {how ? (
            <>
              <Text size="sm">{how}</Text>
              <Text size="sm" c="dimmed" aria-hidden>
                ·
              </Text>
            </>
          ) : null}
          <Source resolution={resolution} />
          {resolution.motion_id !== null ? (
            <>
              <Text size="sm" c="dimmed" aria-hidden>
                ·
              </Text>
              <Anchor component={Link} to={motionPath(resolution.motion_id)} size="sm">
                Beschlussvorlage
              </Anchor>
            </>
          ) : null}
        </Group>
        <LinkedDocuments files={resolution.files} />
        {resolution.follow_up ? <FollowUpSummary followUp={resolution.follow_up} /> : null}
        {!inList ? (
          <Stack gap={2}>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere', fontFamily: 'monospace' }}>
              Prüfsumme: {resolution.hash}
            </Text>
            {resolution.previous_hash ? (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere', fontFamily: 'monospace' }}>
                Vorheriger Eintrag: {resolution.previous_hash}
              </Text>
            ) : null}
          </Stack>
        ) : null}
        {mayKeepFollowUp || mayCorrect ? (
          <Group gap="sm">
            {mayKeepFollowUp ? (
              <Button
                variant="default"
                size="sm"
                leftSection={<IconChecklist size={18} aria-hidden />}
                onClick={() => setEditing('follow-up')}
                aria-label={`Umsetzung von ${resolution.number} bearbeiten`}
              >
                Umsetzung bearbeiten
              </Button>
            ) : null}
            {mayCorrect ? (
              <Button
                variant="default"
                size="sm"
                leftSection={<IconPencilCheck size={18} aria-hidden />}
                onClick={() => setEditing('correction')}
                aria-label={`${resolution.number} berichtigen`}
              >
                Berichtigen
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Stack>
      <Modal
        opened={editing === 'follow-up'}
        onClose={() => setEditing(null)}
        title={`Umsetzung von ${resolution.number}`}
        size="lg"
        fullScreen={phone}
        centered
      >
        {editing === 'follow-up' ? (
          <FollowUpForm resolution={resolution} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
      <Modal
        opened={editing === 'correction'}
        onClose={() => setEditing(null)}
        title={`Berichtigung zu ${resolution.number}`}
        size="lg"
        fullScreen={phone}
        centered
      >
        {editing === 'correction' ? (
          <CorrectionForm
            resolution={resolution}
            onDone={(correction) => {
              setEditing(null);
              if (correction) onCorrected?.(correction);
            }}
          />
        ) : null}
      </Modal>
    </Paper>
  );
}
