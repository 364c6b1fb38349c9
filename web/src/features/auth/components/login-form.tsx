import { Suspense, useEffect, useState, type ComponentType } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { LoginBody } from '@gremienportal/contracts/auth';
import { LOGIN_FAILED_MESSAGE } from '@gremienportal/contracts/rules';
import { FormError } from '../../../components/form-error';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useAuth, type TwoFactorRequired } from '../../../lib/auth';
import { applyFieldErrors } from '../../../lib/form-errors';
import { lazyResolver, useSpecForm } from '../../../lib/forms';

interface LoginValues {
  email: string;
  password: string;
}

const LOGIN_FIELDS = ['email', 'password'] as const;

// The contract schema and zod load when the member first types or leaves a field, not with the page
// (024): the e-mail field has the focus from the start, so the focus itself cannot be the signal.
const resolver = lazyResolver<LoginValues, unknown, LoginBody>(() =>
  import('../login-validation').then((module) => module.loginResolver),
);

/**
 * The second step of the sign-in, which the login page brings from the two-factor feature: `load`
 * fetches its code when the password step asks for it (only accounts with a second factor need
 * it), `Step` shows it.
 */
export interface SecondStep {
  load: () => Promise<unknown>;
  Step: ComponentType<{ email: string; challenge: TwoFactorRequired; onBack: (message?: string) => void }>;
}

/**
 * Signs in. On success the auth state changes and the login route sends the user on to where
 * they came from; on wrong credentials only the password is cleared, so nobody has to type the
 * e-mail address again (decision 124).
 */
export function LoginForm({ secondStep: { load, Step } }: { secondStep: SecondStep }) {
  const { login } = useAuth();
  const [generalError, setGeneralError] = useState<string | string[] | null>(null);
  const [focusRequest, setFocusRequest] = useState<{ field: keyof LoginValues } | null>(null);
  const [secondStep, setSecondStep] = useState<{ email: string; challenge: TwoFactorRequired } | null>(null);
  const form = useSpecForm<LoginValues, unknown, LoginBody>({
    resolver,
    defaultValues: { email: '', password: '' },
  });
  const { isSubmitting } = form.formState;

  // The loading button took the focus away; after a failure it goes back to the field to fix.
  useEffect(() => {
    if (focusRequest && !isSubmitting) form.setFocus(focusRequest.field);
  }, [focusRequest, isSubmitting, form]);

  const handleSubmit = form.handleSubmit(async (values) => {
    setGeneralError(null);
    try {
      const result = await login(values.email, values.password);
      if ('two_factor_required' in result) {
        await load();
        setSecondStep({ email: values.email, challenge: result });
      }
    } catch (error) {
      // Only a 422 places field errors; a 401 or a network error leaves the fields alone.
      const placed = applyFieldErrors(error, form.setError, LOGIN_FIELDS);
      const wrongCredentials = isApiError(error) && error.status === 401;
      if (wrongCredentials) {
        form.resetField('password');
        setGeneralError(LOGIN_FAILED_MESSAGE);
      } else if (placed) {
        setGeneralError(placed.unplaced.length > 0 ? placed.unplaced : null);
      } else {
        setGeneralError(errorMessage(error, LOGIN_FAILED_MESSAGE));
      }
      setFocusRequest({ field: wrongCredentials ? 'password' : 'email' });
    }
  });

  // Back from the second step: the e-mail stays, the password is asked again (the challenge is gone).
  const handleBack = (message?: string) => {
    setSecondStep(null);
    form.resetField('password');
    setGeneralError(message ?? null);
    setFocusRequest({ field: 'password' });
  };

  if (secondStep) {
    return (
      <Suspense fallback={null}>
        <Step email={secondStep.email} challenge={secondStep.challenge} onBack={handleBack} />
      </Suspense>
    );
  }

  return (
    <form
      onSubmit={handleSubmit}
      onInput={resolver.preload}
      onBlur={resolver.preload}
      noValidate
      aria-label="Einloggen"
    >
      <Stack gap="md">
        <FormError message={generalError} />
        <TextInput
          label="E-Mail-Adresse"
          type="email"
          autoComplete="username"
          required
          // The one thing to do on this page: type the address (a keyboard user starts right there).
          autoFocus
          {...form.field('email')}
        />
        <PasswordInput
          label="Passwort"
          autoComplete="current-password"
          required
          {...form.field('password')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth size="md">
          Einloggen
        </Button>
        <Text ta="center" size="sm">
          <Anchor component={Link} to="/forgot-password">
            Passwort vergessen?
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
