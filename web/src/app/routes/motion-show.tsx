import { useLocation } from 'react-router';
import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { motionQueryOptions } from '../../features/resolutions/resolutions.api';
import { MotionView } from '../../features/resolutions/components/motion-view';
import { isApiError } from '../../lib/api-client';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

/** What the form hands over after saving: the server's message when the change voided a vote. */
export interface MotionPageState {
  notice?: string;
}

function MotionShow({ id }: { id: number }) {
  const motion = useQuery(motionQueryOptions(id));
  const notice = (useLocation().state as MotionPageState | null)?.notice;
  // A motion of a committee one does not belong to answers 404, as a missing one does.
  if (motion.isError && isApiError(motion.error) && motion.error.status === 404) return <NotFoundPage />;
  if (motion.isPending) return <LoadingState />;
  if (motion.isError) {
    return (
      <Stack gap="lg">
        <PageTitle>Beschlussvorlage</PageTitle>
        <ErrorState detail={motion.error.message} onRetry={() => void motion.refetch()} />
      </Stack>
    );
  }
  return <MotionView motion={motion.data} notice={notice} />;
}

/** /beschluesse/vorlagen/{id}: a Beschlussvorlage with the member's ballot (the mails link here). */
export default function MotionShowPage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <MotionShow key={id} id={id} />;
}
