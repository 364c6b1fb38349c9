import { useNavigate } from 'react-router';
import { Paper, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { EventUpdateForm } from '../../features/events/components/event-update-form';
import { eventQueryOptions } from '../../features/events/events.api';
import { rolesQueryOptions } from '../../lib/roles';
import { isApiError } from '../../lib/api-client';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

function EventUpdate({ id }: { id: number }) {
  const navigate = useNavigate();
  const event = useQuery(eventQueryOptions(id));
  const roles = useQuery(rolesQueryOptions());

  return (
    <Stack gap="lg" maw={960}>
      <PageTitle documentTitle="Event bearbeiten">
        {event.data ? `Event bearbeiten: ${event.data.title}` : 'Event bearbeiten'}
      </PageTitle>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        {event.isError ? (
          <ErrorState
            detail={event.error.message}
            // A hidden or deleted event stays so: trying again would not help.
            onRetry={
              isApiError(event.error) && event.error.status === 404 ? undefined : () => void event.refetch()
            }
          />
        ) : roles.isError ? (
          <ErrorState detail={roles.error.message} onRetry={() => void roles.refetch()} />
        ) : event.isPending || roles.isPending ? (
          <LoadingState />
        ) : (
          // product.md P4: after an update go to /events.
          <EventUpdateForm event={event.data} roles={roles.data} onUpdated={() => navigate('/events')} />
        )}
      </Paper>
    </Stack>
  );
}

/** /events/update/{id}: title, roles, start, end, location, description, file; "Aktualisieren". */
export default function EventUpdatePage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <EventUpdate key={id} id={id} />;
}
