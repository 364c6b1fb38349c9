import { useState } from 'react';
import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { FormSection } from '../../components/form-section';
import { PageTitle } from '../../components/page-title';
import { DeleteErrorBanner } from '../../features/events/components/delete-error-banner';
import { EventCreateForm } from '../../features/events/components/event-create-form';
import { EventsTable } from '../../features/events/components/events-table';
import { useDeleteEventWithConfirmation } from '../../features/events/components/use-delete-event';
import { eventsQueryOptions } from '../../features/events/events.api';
import { rolesQueryOptions } from '../../lib/roles';
import { useAuth } from '../../lib/auth';

/** Admins create events here; the roles come from the server. */
function CreateEventSection({ onCreated }: { onCreated: (id: number) => void }) {
  const roles = useQuery(rolesQueryOptions());
  return (
    <FormSection
      id="create-event"
      title="Event erstellen"
      description="Sichtbar für die gewählten Rollen. Unter „Benachrichtigung an“ gewählte Rollen erhalten eine E-Mail."
    >
      {roles.isPending ? (
        <LoadingState />
      ) : roles.isError ? (
        <ErrorState detail={roles.error.message} onRetry={() => void roles.refetch()} />
      ) : (
        <EventCreateForm roles={roles.data} onCreated={(event) => onCreated(event.id)} />
      )}
    </FormSection>
  );
}

/** /events: "Übersicht Bereich Events", with the create form for admins (product.md P3). */
export default function EventsPage() {
  const { isAdmin } = useAuth();
  const events = useQuery(eventsQueryOptions());
  // Events created on this page stay at the top of the table until the sort or a filter changes.
  const [pinnedIds, setPinnedIds] = useState<number[]>([]);
  const { confirmDelete, deleteError, clearDeleteError } = useDeleteEventWithConfirmation();

  return (
    <Stack gap="xl">
      <PageTitle>Übersicht Bereich Events</PageTitle>
      {isAdmin ? <CreateEventSection onCreated={(id) => setPinnedIds((ids) => [id, ...ids])} /> : null}
      <Stack gap="md" component="section" aria-labelledby="events-list">
        <Title order={2} size="h3" id="events-list">
          Alle Events
        </Title>
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
      </Stack>
    </Stack>
  );
}
