import { Stack } from '@mantine/core';
import { PageTitle } from '../../components/page-title';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';

export default function ForgotPasswordPage() {
  return (
    <Stack gap="xs">
      <PageTitle>Passwort zurücksetzen</PageTitle>
      <ForgotPasswordForm />
    </Stack>
  );
}
