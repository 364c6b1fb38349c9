import type { User } from '@gremienportal/contracts/users';
import { CreateUserForm } from './create-user-form';
import { FormDrawer } from '../../../components/form-drawer';

interface CreateUserDrawerProps {
  opened: boolean;
  onClose: () => void;
  /** After a create the drawer closes; the new user is pinned to the top of the table. */
  onCreated: (user: User) => void;
}

/** "Nutzer anlegen" beside the table, full screen on phones, so the list comes first on /user. */
export function CreateUserDrawer({ opened, onClose, onCreated }: CreateUserDrawerProps) {
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title="Nutzer anlegen"
      note="Der neue Nutzer erhält eine Einladung per E-Mail und legt sein Passwort selbst fest."
    >
      <CreateUserForm
        onCreated={(user) => {
          onCreated(user);
          onClose();
        }}
      />
    </FormDrawer>
  );
}
