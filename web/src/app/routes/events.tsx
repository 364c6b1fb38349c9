import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCalendarPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { PageSection } from '../../components/page-section';
import { CreateEventDrawer } from '../../features/events/components/create-event-drawer';
import { DeleteErrorBanner } from '../../features/events/components/delete-error-banner';
import { EventsTable } from '../../features/events/components/events-table';
import { UpcomingMeetings } from '../../features/meetings/components/upcoming-meetings';
import { useDeleteEventWithConfirmation } from '../../features/events/components/use-delete-event';
import { eventsQueryOptions } from '../../features/events/events.api';
import { useAuth } from '../../lib/auth';

/**
 * /events: "Übersicht Bereich Events", the list first; admins open the create form in a drawer
 * with "Event erstellen" (product.md P3.10).
 */
export default function EventsPage() {
  const { isAdmin } = useAuth();
  const events = useQuery(eventsQueryOptions());
  // Events created on this page stay at the top of the table until the sort or a filter changes.
  const [pinnedIds, setPinnedIds] = useState<number[]>([]);
  const [createOpened, createDrawer] = useDisclosure(false);
  const { confirmDelete, deleteError, clearDeleteError } = useDeleteEventWithConfirmation();

  return (
    <Stack gap="xl">
      <Group justify="space-between" align="flex-start" gap="sm">
        <PageTitle>Übersicht Bereich Events</PageTitle>
        {isAdmin ? (
          <Button leftSection={<IconCalendarPlus size={18} aria-hidden />} onClick={createDrawer.open}>
            Event erstellen
          </Button>
        ) : null}
      </Group>
      {/* Decision 130: the next meetings with the member's own answer, above the table. */}
      {events.data ? <UpcomingMeetings events={events.data} /> : null}
      <PageSection id="events-list" title="Alle Events" framed={false}>
        <DeleteErrorBanner error={deleteError} onClose={clearDeleteError} />
        {events.isPending ? (
          <LoadingState />
        ) : events.isError ? (
          <ErrorState detail={events.error.message} onRetry={() => void events.refetch()} />
        ) : (
          <EventsTable
            events={events.data}
            isAdmin={isAdmin}
            pinnedIds={pinnedIds}
            onUnpin={() => setPinnedIds([])}
            fetching={events.isFetching && !events.isPending}
            onDelete={confirmDelete}
          />
        )}
      </PageSection>
      {isAdmin ? (
        <CreateEventDrawer
          opened={createOpened}
          onClose={createDrawer.close}
          onCreated={(event) => setPinnedIds((ids) => [event.id, ...ids])}
        />
      ) : null}
    </Stack>
  );
}
