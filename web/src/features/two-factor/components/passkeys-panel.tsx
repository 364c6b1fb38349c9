import { useState, type FormEvent } from 'react';
import {
  Button,
  Group,
  List,
  Modal,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { msg } from '@gremienportal/contracts/rules';
import { TWO_FACTOR_MESSAGES } from '@gremienportal/contracts/two-factor-rules';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { showSuccessToast } from '../../../components/toasts';
import { isApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { passkeyFailureText } from '../../../lib/passkeys';
import { useAddPasskey, useRemovePasskey, type TwoFactorStatus } from '../two-factor.api';
import { deviceName } from '../two-factor.rules';
import { RecoveryCodesPanel } from './recovery-codes-panel';

const NAME_MAX = 60;

/** "Chrome unter Windows": a name the member recognises later, changeable before saving. */
const suggestedName = () => {
  const name = deviceName(navigator.userAgent);
  return name === 'Unbekanntes Gerät' ? 'Mein Passkey' : name;
};

/** "Passkey hinzufügen": a name, then the device's own prompt (fingerprint, face, PIN or key). */
export function AddPasskeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const add = useAddPasskey();
  const [name, setName] = useState(suggestedName);
  const [nameError, setNameError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const handleClose = () => {
    add.reset();
    setCodes(null);
    setNameError(null);
    setPassword('');
    setPasswordError(null);
    setName(suggestedName());
    onClose();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const problem =
      trimmed === ''
        ? TWO_FACTOR_MESSAGES.passkeyNameRequired
        : trimmed.length > NAME_MAX
          ? TWO_FACTOR_MESSAGES.passkeyNameTooLong
          : null;
    const passwordProblem = password === '' ? msg.required('Aktuelles Passwort') : null;
    setNameError(problem);
    setPasswordError(passwordProblem);
    if (problem || passwordProblem) return;
    add.mutate(
      { name: trimmed, currentPassword: password },
      {
        onError: (failure) => {
          const wrongPassword = isApiError(failure) ? failure.errors?.current_password?.[0] : undefined;
          if (wrongPassword) setPasswordError(wrongPassword);
        },
        onSuccess: (body) => {
          if (body.recovery_codes.length > 0) {
            setCodes(body.recovery_codes);
            return;
          }
          showSuccessToast(`Der Passkey „${body.passkey.name}“ wurde hinzugefügt.`);
          handleClose();
        },
      },
    );
  };

  const showingCodes = codes !== null;
  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={showingCodes ? 'Wiederherstellungscodes aufbewahren' : 'Passkey hinzufügen'}
      size="lg"
      centered
      withCloseButton={!showingCodes}
      closeOnEscape={!showingCodes}
      closeOnClickOutside={!showingCodes}
      closeButtonProps={{ 'aria-label': 'Abbrechen' }}
      styles={{ title: { flex: 1, minWidth: 0 } }}
    >
      {showingCodes ? (
        <RecoveryCodesPanel codes={codes} onDone={handleClose} />
      ) : (
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <Text>
              Mit einem Passkey bestätigen Sie die Anmeldung mit Fingerabdruck, Gesichtserkennung, der PIN
              Ihres Geräts oder einem Sicherheitsschlüssel – ohne Code abzutippen. Ein Passkey funktioniert
              nur auf der echten Seite des Gremienportals und schützt so auch vor gefälschten Seiten.
            </Text>
            <TextInput
              label="Name des Passkeys"
              description="Damit Sie ihn später wiedererkennen, zum Beispiel „Laptop“ oder „Telefon“."
              required
              size="md"
              maxLength={NAME_MAX + 20}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={nameError}
              disabled={add.isPending}
              data-autofocus
            />
            <PasswordInput
              label="Aktuelles Passwort"
              description="Zur Bestätigung, dass Sie es sind: Ihr Passwort für das Gremienportal."
              autoComplete="current-password"
              required
              size="md"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={passwordError}
              disabled={add.isPending}
            />
            <FormError
              message={
                add.isError && !passwordError
                  ? passkeyFailureText(add.error, TWO_FACTOR_MESSAGES.passkeyRegisterFailed)
                  : null
              }
            />
            <Group justify="flex-end" gap="sm">
              <Button data-wrap variant="default" size="md" onClick={handleClose} disabled={add.isPending}>
                Abbrechen
              </Button>
              <Button data-wrap type="submit" size="md" loading={add.isPending}>
                Weiter
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/** The account's passkeys, each with the day it was added and last used, and "Entfernen". */
export function PasskeyList({ status }: { status: TwoFactorStatus }) {
  const remove = useRemovePasskey();
  const [error, setError] = useState<string | null>(null);
  if (status.passkeys.length === 0) return null;
  const onlyFactor = !status.totp && status.passkeys.length === 1;

  const handleRemove = (id: number, name: string) =>
    openConfirmDialog({
      title: `Passkey „${name}“ entfernen?`,
      message: 'Mit diesem Passkey können Sie sich danach nicht mehr anmelden.',
      confirmLabel: 'Entfernen',
      onConfirm: () => {
        setError(null);
        remove.mutate(id, {
          onSuccess: () => showSuccessToast(`Der Passkey „${name}“ wurde entfernt.`),
          onError: (failure) =>
            setError(passkeyFailureText(failure, 'Der Passkey konnte nicht entfernt werden.')),
        });
      },
    });

  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Passkeys
      </Title>
      {onlyFactor ? (
        <Text size="sm" c="dimmed">
          Ihr einziger Passkey lässt sich nicht einzeln entfernen; schalten Sie dazu die Zwei-Faktor-Anmeldung
          aus.
        </Text>
      ) : null}
      <FormError message={error} />
      <List spacing="sm" listStyleType="none" aria-label="Passkeys">
        {status.passkeys.map((key) => (
          <List.Item key={key.id}>
            <Group gap="sm" wrap="nowrap" align="flex-start" justify="space-between">
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon size="md" radius="xl" variant="light" aria-hidden>
                  <IconKey size={16} />
                </ThemeIcon>
                <Stack gap={0}>
                  <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                    {key.name}
                  </Text>
                  <Text size="sm" c="dimmed">
                    Hinzugefügt am {formatDate(key.created_at)}
                    {key.last_used_at
                      ? ` · zuletzt verwendet am ${formatDate(key.last_used_at)}`
                      : ' · noch nicht verwendet'}
                  </Text>
                </Stack>
              </Group>
              {onlyFactor ? null : (
                <Button
                  data-wrap
                  variant="subtle"
                  color="red"
                  size="md"
                  aria-label={`Passkey „${key.name}“ entfernen`}
                  onClick={() => handleRemove(key.id, key.name)}
                  loading={remove.isPending && remove.variables === key.id}
                >
                  Entfernen
                </Button>
              )}
            </Group>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
