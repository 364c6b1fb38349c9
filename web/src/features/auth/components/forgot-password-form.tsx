import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ForgotPasswordBody } from '@gremienportal/contracts/auth';
import { forgotPasswordFormSchema } from '@gremienportal/contracts/auth-forms';
import { FORGOT_PASSWORD_SUCCESS_MESSAGE } from '@gremienportal/contracts/rules';
import { FormError } from '../../../components/form-error';
import { isApiError, TRANSPORT_MESSAGES } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/form-errors';
import { useSpecForm } from '../../../lib/forms';
import { requestPasswordReset } from '../auth.api';

interface ForgotPasswordValues {
  email: string;
}

export function ForgotPasswordForm() {
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const form = useSpecForm<ForgotPasswordValues, unknown, ForgotPasswordBody>({
    resolver: zodResolver(forgotPasswordFormSchema),
    defaultValues: { email: '' },
  });
  const { isSubmitting } = form.formState;

  const handleSubmit = form.handleSubmit(async (values) => {
    setErrors([]);
    try {
      await requestPasswordReset(values);
      setSent(true);
    } catch (error) {
      const unplaced = applyServerErrors(form.setError, error, ['email']);
      setErrors(isApiError(error) ? [error.message, ...unplaced] : [TRANSPORT_MESSAGES.network]);
    }
  });

  if (sent) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
          {FORGOT_PASSWORD_SUCCESS_MESSAGE}
        </Alert>
        <Anchor component={Link} to="/login" size="sm">
          Zurück zur Anmeldung
        </Anchor>
      </Stack>
    );
  }

  return (
    <form onSubmit={handleSubmit} noValidate aria-label="Passwort zurücksetzen">
      <Stack gap="md">
        <Text>
          Geben Sie die E-Mail-Adresse Ihres Kontos ein. Sie erhalten dann einen Link, mit dem Sie ein neues
          Passwort festlegen können.
        </Text>
        <FormError message={errors} />
        <TextInput
          label="E-Mail-Adresse"
          type="email"
          autoComplete="email"
          required
          {...form.field('email')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth size="md">
          abschicken
        </Button>
        <Text ta="center" size="sm">
          <Anchor component={Link} to="/login">
            Zurück zur Anmeldung
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
