import { lazy } from 'react';
import { Alert, Stack, Text } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { PageTitle } from '../../components/page-title';
import { LoginForm, type SecondStep } from '../../features/auth/components/login-form';
import { SESSION_ENDED_MESSAGE, useAuth } from '../../lib/auth';

// The page composes the sign-in from its two features; the second step loads only when needed.
const loadTwoFactorStep = () => import('../../features/two-factor/components/two-factor-step');
const secondStep: SecondStep = { load: loadTwoFactorStep, Step: lazy(loadTwoFactorStep) };

export default function LoginPage() {
  const { signOutReason } = useAuth();
  return (
    <Stack gap="xs">
      <PageTitle>Einloggen</PageTitle>
      {signOutReason === 'expired' ? (
        <Alert color="blue" variant="light" icon={<IconClockExclamation aria-hidden />} role="status" mb="sm">
          {SESSION_ENDED_MESSAGE}
        </Alert>
      ) : null}
      <Text mb="md">
        Willkommen im geschützten Bereich der Gremien. Bitte melden Sie sich mit Ihren persönlichen
        Zugangsdaten an.
      </Text>
      <LoginForm secondStep={secondStep} />
    </Stack>
  );
}
