import { Link, useNavigate } from 'react-router';
import { Button, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { resolutionPath } from '../../features/resolutions/components/motion-result';
import { ResolutionCard } from '../../features/resolutions/components/resolution-card';
import {
  ownMembershipsQueryOptions,
  resolutionQueryOptions,
} from '../../features/resolutions/resolutions.api';
import { mayCorrect, mayKeepFollowUp } from '../../features/resolutions/resolutions.rules';
import { isApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

function ResolutionShow({ id }: { id: number }) {
  const { isAdmin } = useAuth();
  const navigate = useNavigate();
  const resolution = useQuery(resolutionQueryOptions(id));
  const memberships = useQuery(ownMembershipsQueryOptions());
  const own = memberships.data ?? [];
  // An entry of a committee one does not belong to answers 404, as a missing one does.
  if (resolution.isError && isApiError(resolution.error) && resolution.error.status === 404)
    return <NotFoundPage />;
  return (
    <Stack gap="md" maw={960}>
      <Button
        component={Link}
        to="/beschluesse"
        variant="subtle"
        px={0}
        w="fit-content"
        leftSection={<IconArrowLeft size={18} aria-hidden />}
      >
        Beschlussbuch
      </Button>
      <PageTitle documentTitle={resolution.data ? `Beschluss ${resolution.data.number}` : 'Beschluss'}>
        {resolution.data ? `Beschluss ${resolution.data.number}` : 'Beschluss'}
      </PageTitle>
      {resolution.isPending ? (
        <LoadingState />
      ) : resolution.isError ? (
        <ErrorState detail={resolution.error.message} onRetry={() => void resolution.refetch()} />
      ) : (
        <ResolutionCard
          resolution={resolution.data}
          mayKeepFollowUp={mayKeepFollowUp(isAdmin, own, resolution.data.committee.id)}
          mayCorrect={mayCorrect(own, resolution.data.committee.id)}
          onCorrected={(correction) => void navigate(resolutionPath(correction.id))}
        />
      )}
    </Stack>
  );
}

/** /beschluesse/{id}: one entry of the Beschlussbuch with its count, names, hashes and follow-up. */
export default function ResolutionShowPage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <ResolutionShow key={id} id={id} />;
}
