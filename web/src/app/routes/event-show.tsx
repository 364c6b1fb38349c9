import { useNavigate } from 'react-router';
import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { AdminAccessSection } from '../../features/audit/components/admin-access-section';
import { AgendaSection } from '../../features/meetings/components/agenda-section';
import { AttendanceAdmin } from '../../features/meetings/components/attendance-admin';
import { AttendanceAnswer } from '../../features/meetings/components/attendance-answer';
import { BookDownload } from '../../features/meetings/components/book-download';
import { DeleteErrorBanner } from '../../features/events/components/delete-error-banner';
import { EventDetails } from '../../features/events/components/event-details';
import { MinutesSection } from '../../features/meetings/components/minutes-section';
import { useDeleteEventWithConfirmation } from '../../features/events/components/use-delete-event';
import { eventQueryOptions } from '../../features/events/events.api';
import { useAuth } from '../../lib/auth';
import { isApiError } from '../../lib/api-client';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

function EventShow({ id }: { id: number }) {
  const { isAdmin } = useAuth();
  const navigate = useNavigate();
  const event = useQuery(eventQueryOptions(id));
  const { confirmDelete, deleteError, clearDeleteError } = useDeleteEventWithConfirmation(() =>
    navigate('/events'),
  );
  const title = event.data?.title ?? 'Event';

  return (
    <Stack gap="lg" maw={960}>
      <PageTitle documentTitle={title}>
        {/* A long title takes two lines on a phone rather than three or four. */}
        {title.length > 28 ? (
          <Text span inherit fz={{ base: 22, sm: 'inherit' }}>
            {title}
          </Text>
        ) : (
          title
        )}
      </PageTitle>
      <DeleteErrorBanner error={deleteError} onClose={clearDeleteError} />
      {event.isPending ? (
        <LoadingState />
      ) : event.isError ? (
        <ErrorState
          detail={event.error.message}
          // A hidden or deleted event stays so: trying again would not help.
          onRetry={
            isApiError(event.error) && event.error.status === 404 ? undefined : () => void event.refetch()
          }
        />
      ) : (
        <>
          <EventDetails event={event.data} isAdmin={isAdmin} onDelete={confirmDelete} />
          {/* Decision 130: the member's answer, the Tagesordnung, the Sitzungsmappe, the Protokoll, the attendance list. */}
          <AttendanceAnswer event={event.data} />
          <AgendaSection event={event.data} isAdmin={isAdmin} />
          <BookDownload event={event.data} />
          <MinutesSection event={event.data} isAdmin={isAdmin} />
          {isAdmin ? <AttendanceAdmin event={event.data} /> : null}
          {isAdmin ? <AdminAccessSection type="event" id={event.data.id} /> : null}
        </>
      )}
    </Stack>
  );
}

/** /events/show/{id}: title, place, times, information file, roles (admins), description, the meeting. */
export default function EventShowPage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <EventShow key={id} id={id} />;
}
