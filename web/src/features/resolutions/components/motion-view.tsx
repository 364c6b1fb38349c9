import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, List, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconHourglass, IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { Motion } from '@gremienportal/contracts/resolutions';
import { PageSection } from '../../../components/page-section';
import { PageTitle } from '../../../components/page-title';
import { formatDateTime } from '../../../lib/format';
import { ownMembershipsQueryOptions } from '../resolutions.api';
import { deadlinePassed, deadlineText, hasManagerControls, motionControls } from '../motions.rules';
import { isVotingMember } from '../resolutions.rules';
import { modeName, PROCEDURE_LABELS, rulesText } from '../resolution-labels';
import { Ballot } from './ballot';
import { ConflictButton, ObjectionButton } from './elector-actions';
import { ElectorateTable } from './electorate-table';
import { MotionManagement } from './motion-management';
import { MotionResult } from './motion-result';
import { MotionStateBadge } from './motion-state-badge';
import { LinkedDocuments, Paragraphs, ResolutionText } from './motion-text';

const OVER = new Set(['geschlossen', 'festgestellt', 'widersprochen', 'zurueckgezogen']);

/** "Ihre Stimme": the ballot, the objection to an Umlaufverfahren, the own conflict of interest. */
function VoteSection({ motion }: { motion: Motion }) {
  const writtenPossible = motion.state === 'entwurf' && motion.event_id !== null && motion.mode !== 'geheim';
  const memberships = useQuery({ ...ownMembershipsQueryOptions(), enabled: writtenPossible });
  const controls = motionControls(motion, {
    votingMember: isVotingMember(memberships.data ?? [], motion.committee.id),
  });
  const { own } = motion;
  const running = motion.state === 'abstimmung';

  if (controls.writtenBallot) {
    return (
      <PageSection title="Schriftliche Stimmabgabe">
        <Ballot motion={motion} written open />
      </PageSection>
    );
  }
  if (!running || !own.elector) return null;
  const expired = deadlinePassed(motion);
  return (
    <PageSection title="Ihre Stimme">
      {own.conflicted ? (
        <Alert color="gray" variant="light" icon={<IconInfoCircle aria-hidden />}>
          Sie haben Befangenheit erklärt und nehmen an dieser Abstimmung nicht teil.
        </Alert>
      ) : expired ? (
        <Text>Die Frist ist abgelaufen; die Abstimmung wird gleich geschlossen.</Text>
      ) : (
        <Ballot motion={motion} open={controls.ballot} />
      )}
      {own.objected ? (
        <Alert color="gray" variant="light" icon={<IconInfoCircle aria-hidden />}>
          Sie haben der Beschlussfassung im Umlaufverfahren widersprochen.
        </Alert>
      ) : null}
      {controls.objection || controls.conflict ? (
        <Stack gap="sm" align="flex-start">
          {controls.objection ? <ObjectionButton motion={motion} /> : null}
          {controls.conflict ? <ConflictButton motion={motion} /> : null}
        </Stack>
      ) : null}
    </PageSection>
  );
}

/** The justification, the documents and the rules of the vote. */
function Details({ motion }: { motion: Motion }) {
  const rules = rulesText(motion);
  return (
    <PageSection title="Einzelheiten">
      {motion.justification ? (
        <Stack gap={4}>
          <Text fw={700}>Begründung</Text>
          <Paragraphs>{motion.justification}</Paragraphs>
        </Stack>
      ) : null}
      <LinkedDocuments files={motion.files} />
      <List spacing={4} size="sm" listStyleType="none" ml={0} pl={0}>
        <List.Item>
          <b>Abstimmung:</b> {modeName(motion.mode)}
          {motion.procedure ? ` · ${PROCEDURE_LABELS[motion.procedure]}` : ''}
        </List.Item>
        <List.Item>
          <b>Mehrheit:</b> {rules.majority}
        </List.Item>
        <List.Item>
          <b>Beschlussfähigkeit:</b> {rules.quorum}
        </List.Item>
        {motion.deadline ? (
          <List.Item>
            <b>Frist:</b> {formatDateTime(motion.deadline)} Uhr
          </List.Item>
        ) : null}
      </List>
    </PageSection>
  );
}

/**
 * A Beschlussvorlage (the mails link here): title, committee, state, the text to be resolved set
 * apart, then the member's ballot, the result once it is over, the details, and for the Vorsitz
 * the controls and the delivery table. Only what the member may do in this state is offered.
 */
export function MotionView({ motion, notice }: { motion: Motion; notice?: string | undefined }) {
  const controls = motionControls(motion);
  const running = motion.state === 'abstimmung';
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap="sm">
        <Button
          component={Link}
          to="/beschluesse"
          variant="subtle"
          px={0}
          w="fit-content"
          leftSection={<IconArrowLeft size={18} aria-hidden />}
        >
          Beschlüsse
        </Button>
        <PageTitle documentTitle={motion.title}>
          <Text span inherit style={{ overflowWrap: 'anywhere' }}>
            {motion.title}
          </Text>
        </PageTitle>
        <Group gap="sm" mt={-8}>
          <MotionStateBadge state={motion.state} />
          <Text size="sm">
            Gremium:{' '}
            <Anchor component={Link} to={`/gremien/${motion.committee.id}`}>
              {motion.committee.name}
            </Anchor>
          </Text>
          {motion.event_id !== null ? (
            <Anchor component={Link} to={`/events/show/${motion.event_id}`} size="sm">
              Zur Sitzung
            </Anchor>
          ) : null}
        </Group>
        {running && motion.deadline ? (
          <Group gap={6} wrap="nowrap">
            <IconHourglass size={18} aria-hidden style={{ flexShrink: 0 }} />
            <Text fw={600}>{deadlineText(motion.deadline)}</Text>
          </Group>
        ) : null}
      </Stack>
      {notice ? (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} role="status">
          {notice}
        </Alert>
      ) : null}
      <ResolutionText text={motion.text} />
      <VoteSection motion={motion} />
      {OVER.has(motion.state) ? <MotionResult motion={motion} /> : null}
      <Details motion={motion} />
      {hasManagerControls(controls) ? <MotionManagement motion={motion} controls={controls} /> : null}
      {motion.electorate !== null && motion.state !== 'entwurf' ? (
        <ElectorateTable motion={motion} noteConflicts={controls.conflictForOthers} />
      ) : null}
    </Stack>
  );
}
