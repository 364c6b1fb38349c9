import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
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
  const { hash } = useLocation();
  const loaded = event.isSuccess;
  // The mail's "Sitzungsmappe herunterladen" links here with #sitzungsmappe (decision 181): the
  // section exists only once the event is loaded, so the browser cannot scroll to it by itself.
  useEffect(() => {
    if (loaded && hash === '#sitzungsmappe') document.getElementById('sitzungsmappe')?.scrollIntoView();
  }, [loaded, hash]);
  // Hidden and missing events answer the same 404 (product.md P5): both show the 404 page, as documents do.
  if (event.isError && isApiError(event.error) && event.error.status === 404) return <NotFoundPage />;

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
        <ErrorState detail={event.error.message} onRetry={() => void event.refetch()} />
      ) : (
        <>
          {/* The member's answer first (the mail's Zusage is saved here), then the facts with the
              Sitzungsmappe beside them, the Tagesordnung, the Protokoll, the attendance list (decision 179). */}
          <AttendanceAnswer event={event.data} />
          <EventDetails event={event.data} isAdmin={isAdmin} onDelete={confirmDelete} />
          <BookDownload event={event.data} />
          <AgendaSection event={event.data} isAdmin={isAdmin} />
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
