import { Link, useNavigate } from 'react-router';
import { Alert, Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLock } from '@tabler/icons-react';
import {
  ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE,
  USER_UPDATE_FAILED_MESSAGE,
  USER_UPDATED_MESSAGE,
  type User,
} from '@gremienportal/contracts/users';
import type { Role } from '@gremienportal/contracts/common';
import { useAuth } from '../../../lib/auth';
import { useUpdateUser } from '../users.api';
import { canManageUser, roleIdsOf } from '../users.permissions';
import { UserForm } from './user-form';

/** Edits a user; on success back to the overview (product.md P4). */
export function EditUserForm({ user, roles }: { user: User; roles: readonly Role[] }) {
  const navigate = useNavigate();
  const { user: actor, updateStoredUser } = useAuth();
  const updateUser = useUpdateUser(user.id);
  const backButton = (
    <Button component={Link} to="/user" variant="default">
      Abbrechen
    </Button>
  );

  if (!actor || !canManageUser(actor, user)) {
    return (
      <Stack gap="md" align="flex-start">
        <Alert color="gray" variant="light" icon={<IconLock aria-hidden />} title="Keine Berechtigung">
          {ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE}
        </Alert>
        <Button component={Link} to="/user" variant="default">
          Zur Übersicht
        </Button>
      </Stack>
    );
  }

  return (
    <UserForm
      name="Nutzer bearbeiten"
      roles={roles}
      titleLabel="Titel (Anrede)"
      submitLabel="Aktualisieren"
      failureMessage={USER_UPDATE_FAILED_MESSAGE}
      initialValues={{
        title: user.title === 'Herr' || user.title === 'Frau' ? user.title : undefined,
        firstname: user.firstname,
        lastname: user.lastname,
        email: user.email,
        roles: roleIdsOf(user.roles, roles),
      }}
      secondaryAction={backButton}
      onSubmit={async (body) => {
        const updated = await updateUser.mutateAsync(body);
        if (updated.id === actor.id) {
          updateStoredUser({
            title: updated.title,
            firstname: updated.firstname,
            lastname: updated.lastname,
            email: updated.email,
            roles: updated.roles,
          });
        }
        notifications.show({ color: 'green', message: USER_UPDATED_MESSAGE });
        await navigate('/user');
      }}
    />
  );
}
