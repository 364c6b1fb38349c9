import { Link } from 'react-router';
import { Anchor, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { agendaQueryOptions } from '../../features/meetings/agenda.api';
import { AgendaEditor } from '../../features/meetings/components/agenda-editor/agenda-editor';
import { eventQueryOptions } from '../../features/events/events.api';
import { isApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

function EventAgenda({ id }: { id: number }) {
  const event = useQuery(eventQueryOptions(id));
  // Edited from what the server has now, not from what another page loaded earlier.
  const agenda = useQuery({ ...agendaQueryOptions(id), staleTime: 0 });
  const failed = event.error ?? agenda.error;
  const fresh = agenda.isFetchedAfterMount && agenda.data !== undefined;
  const heading = event.data?.agenda_count === 0 ? 'Tagesordnung anlegen' : 'Tagesordnung bearbeiten';

  return (
    <Stack gap="md" maw={960}>
      <div>
        <PageTitle>{heading}</PageTitle>
        {event.data ? (
          <Text mt={-12}>
            <Anchor component={Link} to={`/events/show/${id}`} fw={600}>
              {event.data.title}
            </Anchor>{' '}
            <Text span c="dimmed">
              · {formatDateTime(event.data.start)} Uhr
            </Text>
          </Text>
        ) : null}
      </div>
      {failed ? (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <ErrorState
            detail={failed.message}
            // A hidden or deleted event stays so: trying again would not help.
            onRetry={
              isApiError(failed) && failed.status === 404
                ? undefined
                : () => void Promise.all([event.refetch(), agenda.refetch()])
            }
          />
        </Paper>
      ) : event.data && fresh ? (
        <AgendaEditor event={event.data} agenda={agenda.data} />
      ) : (
        <LoadingState />
      )}
    </Stack>
  );
}

/**
 * /events/agenda/{id} (admins): the Tagesordnung editor. Its own page, loaded on first use, so
 * that the editor and its drag and drop never load with the pages members use.
 */
export default function EventAgendaPage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <EventAgenda key={id} id={id} />;
}
