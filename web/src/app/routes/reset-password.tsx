import { Link, useSearchParams } from 'react-router';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { PageTitle } from '../../components/page-title';
import { isUsableResetLink, ResetPasswordForm } from '../../features/auth/components/reset-password-form';

export const INCOMPLETE_LINK_MESSAGE =
  'Der Link ist unvollständig. Bitte öffnen Sie den Link aus der E-Mail vollständig oder fordern Sie einen neuen an.';

/** Serves reset links and invitation links alike: both set a password with id and token. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const token = params.get('token');

  return (
    <Stack gap="xs">
      <PageTitle>Passwort zurücksetzen</PageTitle>
      {id !== null && token !== null && isUsableResetLink(id, token) ? (
        <ResetPasswordForm id={id} token={token} />
      ) : (
        <Stack gap="md">
          <Alert color="yellow" variant="light" icon={<IconLinkOff aria-hidden />} role="alert">
            {INCOMPLETE_LINK_MESSAGE}
          </Alert>
          <Text size="sm">
            <Anchor component={Link} to="/forgot-password">
              Neuen Link anfordern
            </Anchor>
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
