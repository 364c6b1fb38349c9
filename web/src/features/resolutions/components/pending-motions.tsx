import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../../lib/auth';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { PageSection } from '../../../components/page-section';
import {
  motionsQueryOptions,
  ownMembershipsQueryOptions,
  pendingMotionsQueryOptions,
} from '../resolutions.api';
import { inProgress, motionCountText } from '../motions.rules';
import { writesAnyMotions } from '../resolutions.rules';
import { MotionList } from './motion-list';

/** "Laufende Abstimmungen": the running votes that wait for the member's vote or objection. */
export function PendingMotionsSection() {
  const pending = useQuery(pendingMotionsQueryOptions());
  return (
    <PageSection
      title="Laufende Abstimmungen"
      description={pending.data && pending.data.length > 0 ? 'Ihre Stimme wird erbeten' : undefined}
    >
      {pending.isPending ? (
        <LoadingState label="Abstimmungen werden geladen …" />
      ) : pending.isError ? (
        <ErrorState detail={pending.error.message} onRetry={() => void pending.refetch()} />
      ) : pending.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Zurzeit wartet keine Abstimmung auf Ihre Stimme.
        </Text>
      ) : (
        <MotionList motions={pending.data} label="Abstimmungen, die auf Ihre Stimme warten" showCommittee />
      )}
    </PageSection>
  );
}

/**
 * "Offene Beschlussvorlagen" for those who write or lead them (admins, Vorsitz, Schriftführung):
 * drafts, running and closed votes of their committees not yet in the Beschlussbuch.
 */
export function OpenMotionsSection() {
  const { isAdmin } = useAuth();
  const memberships = useQuery({ ...ownMembershipsQueryOptions(), enabled: !isAdmin });
  const writer = writesAnyMotions(isAdmin, memberships.data ?? []);
  const motions = useQuery({ ...motionsQueryOptions({}), enabled: writer });
  const open = (motions.data ?? []).filter(inProgress);
  if (!writer || open.length === 0) return null;
  return (
    <PageSection title="Offene Beschlussvorlagen" description={motionCountText(open.length)}>
      <MotionList motions={open} label="Offene Beschlussvorlagen" showCommittee />
    </PageSection>
  );
}
