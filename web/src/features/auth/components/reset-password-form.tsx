import { useState } from 'react';
import { Link } from 'react-router';
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

/** Sets a new password from a reset or invitation link (query parameters id and token). */
export function ResetPasswordForm({ id, token }: { id: string; token: string }) {
  const [done, setDone] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const form = useSpecForm<ResetPasswordValues, unknown, PasswordResetBody>({
    resolver,
    defaultValues: { id, token, password: '', password_confirmation: '' },
  });
  const { isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    setErrors([]);
    try {
      await resetPassword(values);
      setDone(true);
    } catch (error) {
      const unplaced = applyServerErrors(form.setError, error, ['password', 'password_confirmation']);
      setErrors(isApiError(error) ? [error.message, ...unplaced] : [TRANSPORT_MESSAGES.network]);
    }
  });

  if (done) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
          {PASSWORD_RESET_SUCCESS_MESSAGE}
        </Alert>
        <Button component={Link} to="/login" fullWidth size="md">
          Zum Login
        </Button>
      </Stack>
    );
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Neues Passwort festlegen">
      <Stack gap="md">
        <Text>Bitte legen Sie ein neues Passwort mit mindestens 6 Zeichen fest.</Text>
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
          label="Neues Passwort"
          autoComplete="new-password"
          required
          {...form.field('password')}
        />
        <PasswordInput
          label="Neues Passwort bestätigen"
          autoComplete="new-password"
          required
          {...form.field('password_confirmation')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth size="md">
          speichern
        </Button>
      </Stack>
    </form>
  );
}
