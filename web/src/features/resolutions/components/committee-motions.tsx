import { Link } from 'react-router';
import { Button, Group, Text } from '@mantine/core';
import { IconBook } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { PageSection } from '../../../components/page-section';
import { motionsQueryOptions } from '../resolutions.api';
import { inProgress } from '../motions.rules';
import { writeRegisterFilters } from '../resolutions.rules';
import { CreateMotionButton } from './create-motion-button';
import { MotionList } from './motion-list';

/**
 * "Beschlüsse" on a committee's page: the Beschlussvorlagen not yet in the Beschlussbuch (drafts,
 * running and closed votes), the way to write one (admins, Vorsitz, Schriftführung) and to the
 * committee's Beschlussbuch. Loaded apart from the committee's page.
 */
export default function CommitteeMotions({ committeeId }: { committeeId: number }) {
  const motions = useQuery(motionsQueryOptions({ committee_id: committeeId }));
  const open = (motions.data ?? []).filter(inProgress);
  return (
    <PageSection
      title="Beschlüsse"
      action={
        <Group gap="sm">
          <Button
            component={Link}
            to={`/beschluesse?${writeRegisterFilters({ committee_id: committeeId }).toString()}`}
            variant="default"
            leftSection={<IconBook size={18} aria-hidden />}
          >
            Beschlussbuch
          </Button>
          <CreateMotionButton committeeId={committeeId} />
        </Group>
      }
    >
      {motions.isPending ? (
        <LoadingState label="Beschlussvorlagen werden geladen …" />
      ) : motions.isError ? (
        <ErrorState detail={motions.error.message} onRetry={() => void motions.refetch()} />
      ) : open.length === 0 ? (
        <Text size="sm" c="dimmed">
          Keine offenen Beschlussvorlagen. Gefasste Beschlüsse stehen im Beschlussbuch.
        </Text>
      ) : (
        <MotionList motions={open} label="Offene Beschlussvorlagen" />
      )}
    </PageSection>
  );
}
