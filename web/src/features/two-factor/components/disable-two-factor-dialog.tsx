import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { msg } from '@gremienportal/contracts/rules';
import { TWO_FACTOR_MESSAGES, type TwoFactorMethod } from '@gremienportal/contracts/two-factor-rules';
import { FormError } from '../../../components/form-error';
import { firstMethod, ProofSwitch } from '../../../components/proof-switch';
import { showSuccessToast } from '../../../components/toasts';
import { isApiError } from '../../../lib/api-client';
import { passkeyFailureText, passkeysSupported } from '../../../lib/passkeys';
import { useDisableTwoFactor, type TwoFactorStatus } from '../two-factor.api';

export const TWO_FACTOR_DISABLED_MESSAGE = 'Die Zwei-Faktor-Anmeldung ist ausgeschaltet.';

/**
 * The same step where the member's role requires a second factor: the old one ends and the new one
 * is set up at once (after a new phone, say); the portal lets nobody in that role go on without.
 */
export const TWO_FACTOR_RENEW = {
  title: 'Zwei-Faktor-Anmeldung neu einrichten',
  intro:
    'Für Ihre Rolle ist die Zwei-Faktor-Anmeldung vorgeschrieben, sie lässt sich nicht ausschalten. Hier beenden Sie die bisherige, etwa nach einem Wechsel des Telefons, und richten gleich danach eine neue ein. Die Wiederherstellungscodes und alle vertrauenswürdigen Geräte verlieren ihre Gültigkeit.',
  submit: 'Bisherige beenden',
  done: 'Die bisherige Zwei-Faktor-Anmeldung ist beendet. Richten Sie jetzt die neue ein.',
} as const;

const TURN_OFF = {
  title: 'Zwei-Faktor-Anmeldung ausschalten',
  intro:
    'Danach genügt wieder Ihr Passwort zur Anmeldung. Die Wiederherstellungscodes und alle vertrauenswürdigen Geräte verlieren ihre Gültigkeit.',
  submit: 'Ausschalten',
  done: TWO_FACTOR_DISABLED_MESSAGE,
} as const;

type Mode = TwoFactorMethod;
/** The API's field for each way to confirm. */
const FIELD = { totp: 'code', recovery: 'recovery_code', webauthn: 'webauthn' } as const;
type Errors = Partial<Record<'password' | Mode, string>>;

function validate(password: string, mode: Mode, value: string): Errors {
  const errors: Errors = {};
  if (password === '') errors.password = msg.required('Passwort');
  if (mode === 'totp' && !/^\d{6}$/.test(value.replace(/\s+/g, ''))) {
    errors.totp = TWO_FACTOR_MESSAGES.codeFormat;
  }
  if (mode === 'recovery' && value.trim() === '') {
    errors.recovery = TWO_FACTOR_MESSAGES.recoveryInvalid;
  }
  return errors;
}

/** The ways this account can confirm: its app, its passkeys (where the browser can), a recovery code. */
const methodsOf = (status: Pick<TwoFactorStatus, 'totp' | 'webauthn'>): Mode[] => [
  ...(status.totp ? (['totp'] as const) : []),
  ...(status.webauthn > 0 && passkeysSupported() ? (['webauthn'] as const) : []),
  'recovery',
];

interface DisableTwoFactorDialogProps {
  opened: boolean;
  status: Pick<TwoFactorStatus, 'totp' | 'webauthn' | 'required'>;
  onClose: () => void;
  /** After the factor ended: where it is required, the section opens the new set-up. */
  onDisabled?: () => void;
}

/** Turning the second factor off asks for the password and a current code, a passkey or a recovery code. */
export function DisableTwoFactorDialog({ opened, status, onClose, onDisabled }: DisableTwoFactorDialogProps) {
  const texts = status.required ? TWO_FACTOR_RENEW : TURN_OFF;
  const disable = useDisableTwoFactor();
  const methods = methodsOf(status);
  const [password, setPassword] = useState('');
  const [mode, setMode] = useState<Mode>(() => firstMethod(methods));
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [generalError, setGeneralError] = useState<string | null>(null);

  const handleClose = () => {
    setPassword('');
    setValue('');
    setMode(firstMethod(methods));
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
    const proof =
      mode === 'totp'
        ? { code: value.replace(/\s+/g, '') }
        : mode === 'recovery'
          ? { recovery_code: value.trim() }
          : { passkey: true };
    disable.mutate(
      { password, ...proof },
      {
        onSuccess: () => {
          showSuccessToast(texts.done);
          handleClose();
          onDisabled?.();
        },
        onError: (error) => {
          const fields = isApiError(error) ? (error.errors ?? {}) : {};
          const proofError = fields[FIELD[mode]]?.[0];
          setErrors({ password: fields.password?.[0], [mode]: mode === 'webauthn' ? undefined : proofError });
          if (!fields.password && (mode === 'webauthn' || !proofError))
            setGeneralError(proofError ?? passkeyFailureText(error, TWO_FACTOR_MESSAGES.codeInvalid));
          setValue('');
        },
      },
    );
  };

  const switchMode = (next: Mode) => {
    setMode(next);
    setValue('');
    setGeneralError(null);
    setErrors(({ password: passwordError }) => ({ password: passwordError }));
  };

  const busy = disable.isPending;
  return (
    <Modal opened={opened} onClose={handleClose} title={texts.title} size="md" centered>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text>{texts.intro}</Text>
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
          {mode === 'webauthn' ? (
            <Text>
              Nach „{texts.submit}“ bestätigen Sie mit Ihrem Passkey (Fingerabdruck, Gesicht, PIN oder
              Schlüssel).
            </Text>
          ) : (
            <TextInput
              key={mode}
              label={
                mode === 'totp' ? '6-stelliger Code aus der Authenticator-App' : 'Wiederherstellungscode'
              }
              inputMode={mode === 'totp' ? 'numeric' : 'text'}
              autoComplete={mode === 'totp' ? 'one-time-code' : 'off'}
              autoCapitalize="off"
              spellCheck={false}
              required
              size="md"
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              error={errors[mode]}
              disabled={busy}
            />
          )}
          <ProofSwitch methods={methods} current={mode} onSwitch={switchMode} disabled={busy} />
          <Group justify="flex-end" gap="sm">
            <Button data-wrap variant="default" size="md" onClick={handleClose} disabled={busy}>
              Abbrechen
            </Button>
            <Button data-wrap type="submit" color="red" size="md" loading={busy}>
              {texts.submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
