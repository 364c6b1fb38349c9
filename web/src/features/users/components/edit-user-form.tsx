import { Link, useNavigate } from 'react-router';
import { useId } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
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
import { EffectiveRoles } from './effective-roles';
import { UserForm } from './user-form';

export const DIRECT_ROLES_LABEL = 'Direkt vergebene Rollen';
export const ALL_ROLES_LABEL = 'Alle Rollen';
export const COMMITTEE_ROLES_HINT = 'Rollen aus einem Gremium kommen und gehen mit der Mitgliedschaft.';

/** Beside the role select: what the user holds in all, read-only (decision 189). */
function AllRoles({ user }: { user: User }) {
  const labelId = useId();
  return (
    <div role="group" aria-labelledby={labelId}>
      <Text id={labelId} size="sm" fw={500} mb={4}>
        {ALL_ROLES_LABEL}
      </Text>
      <EffectiveRoles roles={user.effective_roles} />
      <Text size="xs" c="dimmed" mt={6}>
        {COMMITTEE_ROLES_HINT}
      </Text>
    </div>
  );
}

/**
 * Edits a user; on success back to the overview (product.md P4). The role select holds the direct
 * roles only (decision 189): sent back as they came, a committee's role never becomes a direct one.
 */
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
      rolesLabel={DIRECT_ROLES_LABEL}
      rolesAside={<AllRoles user={user} />}
      directRolesOptional={user.effective_roles.some((role) => role.sources.includes('committee'))}
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
