import { Link } from 'react-router';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Role } from '@gremienportal/contracts/common';
import { EVENT_MESSAGES, type PortalEvent } from '@gremienportal/contracts/events';
import { NOTICE_MESSAGES } from '@gremienportal/contracts/meeting-notices';
import { useUpdateEvent } from '../events.api';
import { pickerValueFromLocal } from './event-date-time-input';
import { EventForm, type EventFormValues } from './event-form';

export const initialValuesOf = (event: PortalEvent, roles: readonly Role[]): EventFormValues => ({
  title: event.title,
  roles: roles.filter((role) => event.roles.includes(role.name)).map((role) => String(role.id)),
  start: pickerValueFromLocal(event.default_start),
  end: pickerValueFromLocal(event.default_end),
  location: event.location,
  description: event.description,
  notifications: [],
  notify: false,
});

interface EventUpdateFormProps {
  event: PortalEvent;
  roles: readonly Role[];
  onUpdated: (event: PortalEvent) => void;
}

/** /events/update/{id}: a new file replaces the current one; without one it stays. */
export function EventUpdateForm({ event, roles, onUpdated }: EventUpdateFormProps) {
  const updateEvent = useUpdateEvent(event.id);
  return (
    <EventForm
      mode="update"
      name="Event bearbeiten"
      roles={roles}
      initialValues={initialValuesOf(event, roles)}
      submitLabel="Aktualisieren"
      failureMessage={EVENT_MESSAGES.updateFailed}
      currentFileNote={
        event.external
          ? `Aktuelle Informationsdatei: ${event.title}.${event.file_format ?? ''} – eine neue Datei ersetzt sie.`
          : 'Bisher ist keine Informationsdatei angehängt.'
      }
      secondaryAction={
        <Button variant="default" component={Link} to="/events">
          Abbrechen
        </Button>
      }
      onSubmit={async (body, file, onProgress) => {
        // Without a notice the roles to notify are not sent: they mean nothing then.
        const sent = body.notify ? body : { ...body, notifications: undefined };
        const { event: updated, notified } = await updateEvent.mutateAsync({ body: sent, file, onProgress });
        notifications.show({
          color: 'green',
          message:
            notified === undefined
              ? EVENT_MESSAGES.updated
              : `${EVENT_MESSAGES.updated}. ${NOTICE_MESSAGES.changesSent(notified)}`,
        });
        onUpdated(updated);
      }}
    />
  );
}
