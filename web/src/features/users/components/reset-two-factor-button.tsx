import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconShieldOff } from '@tabler/icons-react';
import type { User } from '@gremienportal/contracts/users';
import { FormError } from '../../../components/form-error';
import { showSuccessToast } from '../../../components/toasts';
import { isApiError } from '../../../lib/api-client';
import { useResetTwoFactor } from '../users.api';

const CODE_REQUIRED =
  'Bitte Ihren eigenen Bestätigungscode oder einen Ihrer Wiederherstellungscodes eingeben.';

/** Six digits are a code of the app; anything else is taken for a recovery code. */
const proofOf = (value: string) => {
  const digits = value.replace(/\s+/g, '');
  return /^\d{6}$/.test(digits) ? { code: digits } : { recovery_code: value.trim() };
};

/**
 * "Zwei-Faktor-Anmeldung zurücksetzen" for a member who lost their phone (decision 126): the dialog says
 * what happens and asks for the acting admin's own code or recovery code (decision 146: a stolen
 * session alone must not remove anybody's second factor); the server then removes the factor, ends
 * the member's sessions and mails them.
 */
export function ResetTwoFactorButton({ user }: { user: User }) {
  const reset = useResetTwoFactor(user.id);
  const name = `${user.firstname} ${user.lastname}`;
  const [opened, setOpened] = useState(false);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [generalError, setGeneralError] = useState<string | null>(null);

  const handleClose = () => {
    setOpened(false);
    setValue('');
    setFieldError(undefined);
    setGeneralError(null);
    reset.reset();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setGeneralError(null);
    if (value.trim() === '') {
      setFieldError(CODE_REQUIRED);
      return;
    }
    setFieldError(undefined);
    reset.mutate(proofOf(value), {
      onSuccess: () => {
        showSuccessToast(`Die Zwei-Faktor-Anmeldung von ${name} wurde zurückgesetzt.`);
        handleClose();
      },
      onError: (error) => {
        const fields = isApiError(error) ? (error.errors ?? {}) : {};
        const proofError = fields.code?.[0] ?? fields.recovery_code?.[0];
        setFieldError(proofError);
        if (!proofError) {
          setGeneralError(
            isApiError(error)
              ? error.message
              : 'Die Zwei-Faktor-Anmeldung konnte nicht zurückgesetzt werden.',
          );
        }
        setValue('');
      },
    });
  };

  const busy = reset.isPending;
  return (
    <>
      <Button
        variant="default"
        color="red"
        leftSection={<IconShieldOff size={18} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        Zwei-Faktor-Anmeldung zurücksetzen
      </Button>
      <Modal
        opened={opened}
        onClose={handleClose}
        title="Zwei-Faktor-Anmeldung zurücksetzen"
        size="md"
        centered
      >
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <Text>
              {`Authenticator-App, Passkeys und Wiederherstellungscodes von ${name} werden entfernt und alle Sitzungen beendet. ${name} erhält eine E-Mail und richtet die Zwei-Faktor-Anmeldung bei der nächsten Anmeldung neu ein.`}
            </Text>
            <FormError message={generalError} />
            <TextInput
              label="Ihr eigener Bestätigungscode"
              description="Zur Sicherheit bestätigen Sie mit Ihrer eigenen Zwei-Faktor-Anmeldung: den 6-stelligen Code aus Ihrer Authenticator-App oder einen Ihrer Wiederherstellungscodes (etwa wenn Sie nur einen Passkey nutzen)."
              autoComplete="one-time-code"
              autoCapitalize="off"
              spellCheck={false}
              required
              size="md"
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              error={fieldError}
              disabled={busy}
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button data-wrap variant="default" size="md" onClick={handleClose} disabled={busy}>
                Abbrechen
              </Button>
              <Button data-wrap type="submit" color="red" size="md" loading={busy}>
                Zurücksetzen
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
