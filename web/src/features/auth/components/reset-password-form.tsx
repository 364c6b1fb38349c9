import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { PasswordResetBody } from '@gremienportal/contracts/auth';
import { passwordResetFormSchema } from '@gremienportal/contracts/auth-forms';
import { PASSWORD_RESET_SUCCESS_MESSAGE } from '@gremienportal/contracts/rules';
import { FormError } from '../../../components/form-error';
import { isApiError, TRANSPORT_MESSAGES } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/form-errors';
import { contractResolver } from '../../../lib/contract-resolver';
import { useSpecForm } from '../../../lib/forms';
import { useAuth } from '../../../lib/auth';
import { resetPassword } from '../auth.api';

interface ResetPasswordValues {
  id: string;
  token: string;
  password: string;
  password_confirmation: string;
}

/** Whether the link's id and token can be sent at all; the server decides whether they are valid. */
export function isUsableResetLink(id: string | null, token: string | null): boolean {
  const { shape } = passwordResetFormSchema;
  return shape.id.safeParse(id).success && shape.token.safeParse(token).success;
}

const resolver = contractResolver<ResetPasswordValues, PasswordResetBody>(passwordResetFormSchema);

/** What the form says for a reset link and for an invitation's first password. */
const WORDING = {
  reset: {
    intro: 'Bitte legen Sie ein neues Passwort mit mindestens 6 Zeichen fest.',
    label: 'Neues Passwort',
    submit: 'speichern',
  },
  invitation: {
    intro:
      'Legen Sie Ihr Passwort fest: mindestens 6 Zeichen, nicht Ihre E-Mail-Adresse und kein häufig ' +
      'genutztes Passwort wie „123456“. Danach sind Sie gleich angemeldet.',
    label: 'Passwort',
    submit: 'Passwort festlegen',
  },
} as const;

/**
 * Sets a password from a reset or invitation link (query parameters id and token). A reset ends
 * on "Zur Anmeldung"; an invitation signs the new member in and opens the portal (decision 176).
 */
export function ResetPasswordForm({
  id,
  token,
  purpose = 'reset',
}: {
  id: string;
  token: string;
  purpose?: 'reset' | 'invitation';
}) {
  const wording = WORDING[purpose];
  const { completeLogin } = useAuth();
  const navigate = useNavigate();
  const [done, setDone] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const form = useSpecForm<ResetPasswordValues, unknown, PasswordResetBody>({
    resolver,
    defaultValues: { id, token, password: '', password_confirmation: '' },
  });
  const { isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    setErrors([]);
    try {
      const result = await resetPassword(values);
      if (result.sign_in && 'access_token' in result.sign_in) {
        completeLogin(result.sign_in);
        navigate('/', { replace: true });
        return;
      }
      setDone(result.message);
    } catch (error) {
      const unplaced = applyServerErrors(form.setError, error, ['password', 'password_confirmation']);
      setErrors(isApiError(error) ? [error.message, ...unplaced] : [TRANSPORT_MESSAGES.network]);
    }
  });

  if (done !== null) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
          {purpose === 'reset' ? PASSWORD_RESET_SUCCESS_MESSAGE : done}
        </Alert>
        <Button component={Link} to="/login" fullWidth size="md">
          Zur Anmeldung
        </Button>
      </Stack>
    );
  }

  return (
    <form
      onSubmit={handleSubmit}
      noValidate
      aria-label={purpose === 'reset' ? 'Neues Passwort festlegen' : 'Passwort festlegen'}
    >
      <Stack gap="md">
        <Text>{wording.intro}</Text>
        <FormError message={errors} />
        {errors.length > 0 ? (
          <Text size="sm">
            Ist der Link abgelaufen?{' '}
            <Anchor component={Link} to="/forgot-password">
              Neuen Link anfordern
            </Anchor>
          </Text>
        ) : null}
        <PasswordInput
          label={wording.label}
          autoComplete="new-password"
          required
          {...form.field('password')}
        />
        <PasswordInput
          label={`${wording.label} bestätigen`}
          autoComplete="new-password"
          required
          {...form.field('password_confirmation')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth size="md">
          {wording.submit}
        </Button>
      </Stack>
    </form>
  );
}
