import { Drawer, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { User } from '@gremienportal/contracts/users';
import { CreateUserForm } from './create-user-form';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';

/** The drawer's title reads as the heading it is. */
const DRAWER_STYLES = { title: { fontSize: 'var(--mantine-h3-font-size)', fontWeight: 650 } };

interface CreateUserDrawerProps {
  opened: boolean;
  onClose: () => void;
  /** After a create the drawer closes; the new user is pinned to the top of the table. */
  onCreated: (user: User) => void;
}

/** "Nutzer anlegen" beside the table, full screen on phones, so the list comes first on /user. */
export function CreateUserDrawer({ opened, onClose, onCreated }: CreateUserDrawerProps) {
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title="Nutzer anlegen"
      position="right"
      size={phone ? '100%' : 'lg'}
      styles={DRAWER_STYLES}
    >
      <Text size="sm" c="dimmed" mb="md">
        Der neue Nutzer erhält eine Einladung per E-Mail und legt sein Passwort selbst fest.
      </Text>
      <CreateUserForm
        onCreated={(user) => {
          onCreated(user);
          onClose();
        }}
      />
    </Drawer>
  );
}
