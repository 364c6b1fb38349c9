import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { msg } from '@gremienportal/contracts/rules';
import { TWO_FACTOR_MESSAGES } from '@gremienportal/contracts/two-factor-rules';
import { FormError } from '../../../components/form-error';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useDisableTwoFactor } from '../account.api';

export const TWO_FACTOR_DISABLED_MESSAGE = 'Die Zwei-Faktor-Anmeldung ist ausgeschaltet.';

type Mode = 'code' | 'recovery_code';
type Errors = Partial<Record<'password' | Mode, string>>;

function validate(password: string, mode: Mode, value: string): Errors {
  const errors: Errors = {};
  if (password === '') errors.password = msg.required('Passwort');
  if (mode === 'code' && !/^\d{6}$/.test(value.replace(/\s+/g, ''))) {
    errors.code = TWO_FACTOR_MESSAGES.codeFormat;
  }
  if (mode === 'recovery_code' && value.trim() === '') {
    errors.recovery_code = TWO_FACTOR_MESSAGES.recoveryInvalid;
  }
  return errors;
}

/** Turning the second factor off asks for the password and a current code (or a recovery code). */
export function DisableTwoFactorDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const disable = useDisableTwoFactor();
  const [password, setPassword] = useState('');
  const [mode, setMode] = useState<Mode>('code');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [generalError, setGeneralError] = useState<string | null>(null);

  const handleClose = () => {
    setPassword('');
    setValue('');
    setMode('code');
    setErrors({});
    setGeneralError(null);
    disable.reset();
    onClose();
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(password, mode, value);
    setErrors(found);
    setGeneralError(null);
    if (Object.keys(found).length > 0) return;
    const proof = mode === 'code' ? { code: value.replace(/\s+/g, '') } : { recovery_code: value.trim() };
    disable.mutate(
      { password, ...proof },
      {
        onSuccess: () => {
          showSuccessToast(TWO_FACTOR_DISABLED_MESSAGE);
          handleClose();
        },
        onError: (error) => {
          const fields = isApiError(error) ? (error.errors ?? {}) : {};
          setErrors({
            password: fields.password?.[0],
            [mode]: fields[mode]?.[0],
          });
          if (!fields.password && !fields[mode])
            setGeneralError(errorMessage(error, TWO_FACTOR_MESSAGES.codeInvalid));
          setValue('');
        },
      },
    );
  };

  const switchMode = () => {
    setMode(mode === 'code' ? 'recovery_code' : 'code');
    setValue('');
    setErrors(({ password: passwordError }) => ({ password: passwordError }));
  };

  const busy = disable.isPending;
  return (
    <Modal opened={opened} onClose={handleClose} title="Zwei-Faktor-Anmeldung ausschalten" size="md" centered>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text>
            Danach genügt wieder Ihr Passwort zur Anmeldung. Die Wiederherstellungscodes und alle
            vertrauenswürdigen Geräte verlieren ihre Gültigkeit.
          </Text>
          <FormError message={generalError} />
          <PasswordInput
            label="Passwort"
            autoComplete="current-password"
            required
            size="md"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={errors.password}
            disabled={busy}
            data-autofocus
          />
          <TextInput
            key={mode}
            label={mode === 'code' ? '6-stelliger Code aus der Authenticator-App' : 'Wiederherstellungscode'}
            inputMode={mode === 'code' ? 'numeric' : 'text'}
            autoComplete={mode === 'code' ? 'one-time-code' : 'off'}
            autoCapitalize="off"
            spellCheck={false}
            required
            size="md"
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            error={errors[mode]}
            disabled={busy}
          />
          <Button data-wrap variant="subtle" size="md" onClick={switchMode} disabled={busy}>
            {mode === 'code' ? 'Wiederherstellungscode verwenden' : 'Stattdessen Code eingeben'}
          </Button>
          <Group justify="flex-end" gap="sm">
            <Button data-wrap variant="default" size="md" onClick={handleClose} disabled={busy}>
              Abbrechen
            </Button>
            <Button data-wrap type="submit" color="red" size="md" loading={busy}>
              Ausschalten
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
