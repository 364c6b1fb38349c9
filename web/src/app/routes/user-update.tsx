import { Paper, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { EditUserForm } from '../../features/users/components/edit-user-form';
import { UserMembershipsSection } from '../../features/users/components/user-memberships-section';
import { userQueryOptions } from '../../features/users/users.api';
import { rolesQueryOptions } from '../../lib/roles';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

function UserUpdate({ id }: { id: number }) {
  const user = useQuery(userQueryOptions(id));
  const roles = useQuery(rolesQueryOptions());

  return (
    <Stack gap="lg" maw={960}>
      <PageTitle documentTitle="Nutzer bearbeiten">
        {user.data ? `Nutzer bearbeiten: ${user.data.firstname} ${user.data.lastname}` : 'Nutzer bearbeiten'}
      </PageTitle>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        {user.isError || roles.isError ? (
          <ErrorState
            detail={(user.error ?? roles.error)?.message}
            onRetry={() => void (user.isError ? user.refetch() : roles.refetch())}
          />
        ) : user.data && roles.data ? (
          // A fresh form per loaded user, so its initial values are the loaded ones.
          <EditUserForm key={user.data.id} user={user.data} roles={roles.data} />
        ) : (
          <LoadingState />
        )}
      </Paper>
      {/* Below the form, so appearing with the user moves nothing (decision 189). */}
      {user.data ? <UserMembershipsSection user={user.data} /> : null}
    </Stack>
  );
}

/**
 * /user/update/{id}: Titel (Anrede), Vorname, Nachname, E-Mail, the direct roles beside all roles,
 * the committee memberships; on success back to /user.
 */
export default function UserUpdatePage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <UserUpdate key={id} id={id} />;
}
