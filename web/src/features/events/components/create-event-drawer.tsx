import { useQuery } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { FormDrawer } from '../../../components/form-drawer';
import { rolesQueryOptions } from '../../../lib/roles';
import { EventCreateForm } from './event-create-form';

/** The roles come from the server; they load when the drawer opens. */
function CreateEventContent({ onCreated }: { onCreated: (event: PortalEvent) => void }) {
  const roles = useQuery(rolesQueryOptions());
  if (roles.isPending) return <LoadingState />;
  if (roles.isError) return <ErrorState detail={roles.error.message} onRetry={() => void roles.refetch()} />;
  return <EventCreateForm roles={roles.data} onCreated={onCreated} />;
}

interface CreateEventDrawerProps {
  opened: boolean;
  onClose: () => void;
  /** After a create the drawer closes; the new event is pinned to the top of the list. */
  onCreated: (event: PortalEvent) => void;
}

/** "Event erstellen" beside the list, full screen on phones, so the list comes first on /events. */
export function CreateEventDrawer({ opened, onClose, onCreated }: CreateEventDrawerProps) {
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title="Event erstellen"
      note="Sichtbar für die gewählten Rollen. Unter „Benachrichtigung an“ gewählte Rollen erhalten eine E-Mail."
    >
      <CreateEventContent
        onCreated={(event) => {
          onCreated(event);
          onClose();
        }}
      />
    </FormDrawer>
  );
}
