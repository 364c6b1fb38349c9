import { Drawer, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { rolesQueryOptions } from '../../../lib/roles';
import { EventCreateForm } from './event-create-form';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';

/** The roles come from the server; they load when the drawer opens. */
function CreateEventContent({ onCreated }: { onCreated: (event: PortalEvent) => void }) {
  const roles = useQuery(rolesQueryOptions());
  if (roles.isPending) return <LoadingState />;
  if (roles.isError) return <ErrorState detail={roles.error.message} onRetry={() => void roles.refetch()} />;
  return <EventCreateForm roles={roles.data} onCreated={onCreated} />;
}

/** The drawer's title reads as the heading it is. */
const DRAWER_STYLES = { title: { fontSize: 'var(--mantine-h3-font-size)', fontWeight: 650 } };

interface CreateEventDrawerProps {
  opened: boolean;
  onClose: () => void;
  /** After a create the drawer closes; the new event is pinned to the top of the list. */
  onCreated: (event: PortalEvent) => void;
}

/** "Event erstellen" beside the list, full screen on phones, so the list comes first on /events. */
export function CreateEventDrawer({ opened, onClose, onCreated }: CreateEventDrawerProps) {
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title="Event erstellen"
      position="right"
      size={phone ? '100%' : 'lg'}
      styles={DRAWER_STYLES}
    >
      <Text size="sm" c="dimmed" mb="md">
        Sichtbar für die gewählten Rollen. Unter „Benachrichtigung an“ gewählte Rollen erhalten eine E-Mail.
      </Text>
      <CreateEventContent
        onCreated={(event) => {
          onCreated(event);
          onClose();
        }}
      />
    </Drawer>
  );
}
