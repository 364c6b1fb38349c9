import { notifications } from '@mantine/notifications';
import { IconCalendarPlus } from '@tabler/icons-react';
import type { Role } from '@gremienportal/contracts/common';
import { EVENT_MESSAGES, type PortalEvent } from '@gremienportal/contracts/events';
import { useCreateEvent } from '../events.api';
import { EventForm } from './event-form';

interface EventCreateFormProps {
  roles: readonly Role[];
  onCreated?: (event: PortalEvent) => void;
}

/** Admins' create form on /events; the chosen notification roles get an e-mail (product.md P7.3). */
export function EventCreateForm({ roles, onCreated }: EventCreateFormProps) {
  const createEvent = useCreateEvent();
  return (
    <EventForm
      mode="create"
      name="Event erstellen"
      roles={roles}
      submitLabel="Event erstellen"
      submitIcon={<IconCalendarPlus size={18} aria-hidden />}
      failureMessage={EVENT_MESSAGES.createFailed}
      resetOnSuccess
      onSubmit={async (body, file, onProgress) => {
        const event = await createEvent.mutateAsync({ body, file, onProgress });
        notifications.show({ color: 'green', message: EVENT_MESSAGES.created });
        onCreated?.(event);
      }}
    />
  );
}
