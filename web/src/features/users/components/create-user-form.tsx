import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { USER_CREATE_FAILED_MESSAGE, USER_CREATED_MESSAGE, type User } from '@gremienportal/contracts/users';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { useCreateUser } from '../users.api';
import { rolesQueryOptions } from '../../../lib/roles';
import { UserForm } from './user-form';

/** "Nutzer anlegen": the new user is invited by e-mail and sets the password (product.md P8.1). */
export function CreateUserForm({ onCreated }: { onCreated?: (user: User) => void }) {
  const roles = useQuery(rolesQueryOptions());
  const createUser = useCreateUser();

  if (roles.isPending) return <LoadingState />;
  if (roles.isError) return <ErrorState detail={roles.error.message} onRetry={() => void roles.refetch()} />;

  return (
    <UserForm
      name="Nutzer anlegen"
      roles={roles.data}
      titleLabel="Anrede"
      submitLabel="Anlegen"
      failureMessage={USER_CREATE_FAILED_MESSAGE}
      resetOnSuccess
      onSubmit={async (body) => {
        const user = await createUser.mutateAsync(body);
        notifications.show({ color: 'green', message: USER_CREATED_MESSAGE });
        onCreated?.(user);
      }}
    />
  );
}
