import { Link, useSearchParams } from 'react-router';
import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { PageTitle } from '../../components/page-title';
import { isUsableResetLink, ResetPasswordForm } from '../../features/auth/components/reset-password-form';

export const INCOMPLETE_LINK_MESSAGE =
  'Der Link ist unvollständig. Bitte öffnen Sie den Link aus der E-Mail vollständig oder fordern Sie einen neuen an.';

/** A page that sets a password with the link's id and token: a reset, or an invitation's first. */
export function PasswordLinkPage({
  title,
  documentTitle,
  purpose,
}: {
  title: string;
  documentTitle?: string;
  purpose: 'reset' | 'invitation';
}) {
  const [params] = useSearchParams();
  const id = params.get('id');
  const token = params.get('token');

  return (
    <Stack gap="xs">
      <PageTitle documentTitle={documentTitle}>{title}</PageTitle>
      {id !== null && token !== null && isUsableResetLink(id, token) ? (
        <ResetPasswordForm id={id} token={token} purpose={purpose} />
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

/** Reset links; invitations have their own page (invitation.tsx), and older invitation mails land here. */
export default function ResetPasswordPage() {
  return <PasswordLinkPage title="Passwort zurücksetzen" purpose="reset" />;
}
