import { useState } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import {
  INVITATION_FAILED_MESSAGE,
  INVITATION_SENT_MESSAGE,
  USER_DELETE_FAILED_MESSAGE,
  USER_DELETED_MESSAGE,
  type User,
} from '@gremienportal/contracts/users';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { DismissibleError } from '../../../components/dismissible-error';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { errorMessage } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useDeleteUser, useResendInvitation, usersQueryOptions } from '../users.api';
import { UsersTable } from './users-table';

export const OVERVIEW_HEADING = 'Übersicht Benutzerkonten';
const fullName = (user: User) => `${user.firstname} ${user.lastname}`;

interface UsersOverviewProps {
  pinnedIds?: readonly number[];
  onUnpin?: () => void;
}

/** The user table with its delete and invitation actions and their messages. */
export function UsersOverview({ pinnedIds, onUnpin }: UsersOverviewProps) {
  const { user: actor } = useAuth();
  const users = useQuery(usersQueryOptions());
  const deleteUser = useDeleteUser();
  const resendInvitation = useResendInvitation();
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const handleDelete = (target: User) =>
    openConfirmDialog({
      title: 'Nutzer löschen',
      message: (
        <Stack gap="xs">
          <Text>
            Soll {fullName(target)} ({target.email}) wirklich gelöscht werden?
          </Text>
          <Text size="sm" c="dimmed">
            Das Konto wird sofort entfernt und alle Anmeldungen enden. Das lässt sich nicht rückgängig machen.
          </Text>
        </Stack>
      ),
      onConfirm: () => {
        setDeleteError(null);
        deleteUser.mutate(target.id, {
          onSuccess: () => notifications.show({ color: 'green', message: USER_DELETED_MESSAGE }),
          onError: (error) => setDeleteError(errorMessage(error, '')),
        });
      },
    });

  const handleResendInvitation = (target: User) =>
    openConfirmDialog({
      title: 'Einladung erneut senden',
      message: `${fullName(target)} erhält eine neue Einladung an ${target.email}. Ein früher gesendeter Link wird damit ungültig.`,
      confirmLabel: 'Einladung senden',
      danger: false,
      onConfirm: () =>
        resendInvitation.mutate(target.id, {
          onSuccess: (response) =>
            notifications.show({ color: 'green', message: response?.message ?? INVITATION_SENT_MESSAGE }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              title: INVITATION_FAILED_MESSAGE,
              message: errorMessage(error, INVITATION_FAILED_MESSAGE),
            }),
        }),
    });

  return (
    <Stack gap="md">
      <Title order={2} size="h3" id="users-overview-heading">
        {OVERVIEW_HEADING}
      </Title>
      <DismissibleError
        title={USER_DELETE_FAILED_MESSAGE}
        error={deleteError}
        onClose={() => setDeleteError(null)}
      />
      {users.isPending ? (
        <LoadingState />
      ) : users.isError ? (
        <ErrorState detail={users.error.message} onRetry={() => void users.refetch()} />
      ) : (
        <UsersTable
          users={users.data}
          actor={{ id: actor?.id ?? 0, roles: actor?.roles ?? [] }}
          pinnedIds={pinnedIds}
          onUnpin={onUnpin}
          fetching={users.isFetching && !users.isPending}
          onDelete={handleDelete}
          onResendInvitation={handleResendInvitation}
        />
      )}
    </Stack>
  );
}
