import { lazy, Suspense } from 'react';
import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { isSuperAdmin } from '@gremienportal/contracts/rules';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { committeeQueryOptions } from '../../features/committees/committees.api';
import { CommitteeHeader } from '../../features/committees/components/committee-header';
import { CommitteeTerms } from '../../features/committees/components/committee-terms';
import { isApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

// The committee's Beschlussvorlagen load apart from its page (their own chunk and request).
const CommitteeMotions = lazy(() => import('../../features/resolutions/components/committee-motions'));

function CommitteeShow({ id }: { id: number }) {
  const { user, isAdmin } = useAuth();
  const committee = useQuery(committeeQueryOptions(id));
  // A committee one does not belong to answers 404, as a missing one does.
  if (committee.isError && isApiError(committee.error) && committee.error.status === 404)
    return <NotFoundPage />;
  if (committee.isPending) return <LoadingState />;
  if (committee.isError) {
    return (
      <Stack gap="lg">
        <PageTitle>Gremium</PageTitle>
        <ErrorState detail={committee.error.message} onRetry={() => void committee.refetch()} />
      </Stack>
    );
  }
  return (
    <Stack gap="xl">
      <CommitteeHeader committee={committee.data} isAdmin={isAdmin} />
      <Suspense fallback={null}>
        <CommitteeMotions committeeId={committee.data.id} />
      </Suspense>
      <CommitteeTerms
        committee={committee.data}
        isAdmin={isAdmin}
        isSuperAdmin={isSuperAdmin(user?.roles ?? [])}
      />
    </Stack>
  );
}

/** /gremien/{id}: the committee and the members of its terms (Mitgliederverzeichnis). */
export default function CommitteeShowPage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <CommitteeShow key={id} id={id} />;
}
