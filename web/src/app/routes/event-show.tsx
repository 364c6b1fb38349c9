import { lazy, Suspense, useEffect, type ComponentProps } from 'react';
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
import { agendaQueryOptions } from '../../features/meetings/agenda.api';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { useAuth } from '../../lib/auth';
import { isApiError } from '../../lib/api-client';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

// The Beschlussvorlagen under the agenda items, and their list, load apart from the page
// (decision 184): the page's first load carries nothing of them.
const AgendaMotions = lazy(() => import('../../features/resolutions/components/agenda-motions'));

const HOUR_MS = 3_600_000;

/** From an hour before the meeting until two hours after it, a vote may open or close any moment. */
const duringMeeting = (event: Pick<PortalEvent, 'start' | 'end'>, now = Date.now()) =>
  new Date(event.start).getTime() - HOUR_MS <= now && now <= new Date(event.end).getTime() + 2 * HOUR_MS;

type MotionsOfProps = Omit<ComponentProps<typeof AgendaMotions>, 'live' | 'eventId'> & { event: PortalEvent };

function MotionsOf({ event, ...props }: MotionsOfProps) {
  return (
    <Suspense fallback={null}>
      <AgendaMotions {...props} eventId={event.id} live={duringMeeting(event)} />
    </Suspense>
  );
}

function EventShow({ id }: { id: number }) {
  const { isAdmin } = useAuth();
  const navigate = useNavigate();
  const event = useQuery(eventQueryOptions(id));
  // The same query as the Tagesordnung's: motions of items the member does not see go below it.
  const agenda = useQuery({ ...agendaQueryOptions(id), enabled: (event.data?.agenda_count ?? 0) > 0 });
  const itemIds = (agenda.data ?? []).map((item) => item.id);
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
          <AgendaSection
            event={event.data}
            isAdmin={isAdmin}
            itemExtra={(item) => (
              <MotionsOf event={event.data} agendaItemId={item.id} itemNumber={item.number} />
            )}
            footer={
              agenda.isSuccess ? (
                <MotionsOf event={event.data} agendaItemId={null} placedItemIds={itemIds} />
              ) : null
            }
          />
          {event.data.agenda_count === 0 ? (
            <MotionsOf event={event.data} agendaItemId={null} placedItemIds={[]} standalone />
          ) : null}
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
