import { Link } from 'react-router';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { LoadingState } from '../../components/loading-state';
import { PageTitle } from '../../components/page-title';
import { UserDetails } from '../../features/users/components/user-details';
import { UserMembershipsSection } from '../../features/users/components/user-memberships-section';
import { ResetTwoFactorButton } from '../../features/users/components/reset-two-factor-button';
import { userQueryOptions } from '../../features/users/users.api';
import { canManageUser } from '../../features/users/users.permissions';
import { useAuth } from '../../lib/auth';
import { useIdParam } from '../../lib/route-params';
import NotFoundPage from './not-found';

function UserShow({ id }: { id: number }) {
  const { user: actor, isAdmin } = useAuth();
  const user = useQuery(userQueryOptions(id));
  const name = user.data ? `${user.data.firstname} ${user.data.lastname}` : 'Nutzer';

  return (
    <Stack gap="lg" maw={860}>
      <PageTitle documentTitle={name}>
        {/* A long name takes two lines on a phone rather than three or four. */}
        {name.length > 28 ? (
          <Text span inherit fz={{ base: 22, sm: 'inherit' }}>
            {name}
          </Text>
        ) : (
          name
        )}
      </PageTitle>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        {user.isPending ? (
          <LoadingState />
        ) : user.isError ? (
          <ErrorState detail={user.error.message} onRetry={() => void user.refetch()} />
        ) : (
          <UserDetails user={user.data} />
        )}
      </Paper>
      {isAdmin ? (
        <Group>
          <Button
            component={Link}
            to="/user"
            variant="default"
            leftSection={<IconArrowLeft size={18} aria-hidden />}
          >
            Zur Übersicht
          </Button>
          {user.data && actor && canManageUser(actor, user.data) ? (
            <Button
              component={Link}
              to={`/user/update/${id}`}
              leftSection={<IconPencil size={18} aria-hidden />}
            >
              Bearbeiten
            </Button>
          ) : null}
          {user.data?.two_factor && actor && canManageUser(actor, user.data) ? (
            <ResetTwoFactorButton user={user.data} />
          ) : null}
        </Group>
      ) : null}
      {/* Last, so appearing with the user moves neither the data nor the buttons (decision 189). */}
      {user.data ? <UserMembershipsSection user={user.data} /> : null}
    </Stack>
  );
}

/** /user/show/{id}: Anrede, Vorname, Nachname, E-Mail, Rollen (product.md P3). */
export default function UserShowPage() {
  const id = useIdParam();
  return id === null ? <NotFoundPage /> : <UserShow key={id} id={id} />;
}
