import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Checkbox, Stack, Text, TextInput, Title } from '@mantine/core';
import type { LoginResponse } from '@gremienportal/contracts/auth';
import type { TwoFactorRequired } from '@gremienportal/contracts/two-factor';
import {
  TRUSTED_DEVICE_DAYS,
  TWO_FACTOR_MESSAGES,
  type TwoFactorMethod,
} from '@gremienportal/contracts/two-factor-rules';
import { FormError } from '../../../components/form-error';
import { firstMethod, ProofSwitch } from '../../../components/proof-switch';
import { api, isApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { storeDeviceToken } from '../../../lib/device-token';
import { confirmWithPasskey, passkeyFailureText, passkeysSupported, prompt } from '../../../lib/passkeys';

type Mode = TwoFactorMethod;
type SignedIn = LoginResponse & { device_token?: string };

export interface TwoFactorStepProps {
  email: string;
  challenge: TwoFactorRequired;
  /** Back to the password step, with a message when the challenge has expired or is locked. */
  onBack: (message?: string) => void;
}

/** Checked by hand: this step loads with the login page and must not bring a schema library. */
function validate(mode: Mode, value: string): string | null {
  if (mode === 'webauthn') return null;
  if (mode === 'totp') {
    return /^\d{6}$/.test(value.replace(/\s+/g, '')) ? null : TWO_FACTOR_MESSAGES.codeFormat;
  }
  const code = value.trim();
  return code.length > 0 && code.length <= 40 ? null : TWO_FACTOR_MESSAGES.recoveryInvalid;
}

const TEXTS: Record<Mode, { title: string; hint: string }> = {
  totp: {
    title: 'Bestätigungscode',
    hint: 'Öffnen Sie Ihre Authenticator-App und geben Sie den 6‑stelligen Code für das Gremienportal ein.',
  },
  recovery: {
    title: 'Bestätigungscode',
    hint: 'Geben Sie einen Ihrer Wiederherstellungscodes ein. Jeder Code gilt nur einmal.',
  },
  webauthn: {
    title: 'Mit Passkey bestätigen',
    hint: 'Bestätigen Sie die Anmeldung mit Ihrem Passkey: Fingerabdruck, Gesichtserkennung, PIN Ihres Geräts oder Sicherheitsschlüssel.',
  },
};

/**
 * The second step of the sign-in (decision 126): the passkey prompt, a 6-digit code from the
 * authenticator app or a recovery code, and whether to trust this device. On success it signs in
 * as the password step does, so the login route sends the member on to where they came from.
 */
export default function TwoFactorStep({ email, challenge, onBack }: TwoFactorStepProps) {
  const { completeLogin } = useAuth();
  const [methods] = useState(() =>
    challenge.methods.filter((method) => method !== 'webauthn' || passkeysSupported()),
  );
  const [mode, setMode] = useState<Mode>(() => firstMethod(methods));
  const [value, setValue] = useState('');
  const [trustDevice, setTrustDevice] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  // The loading button took the focus; after a failure it returns to the field once enabled again.
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest > 0 && !submitting) inputRef.current?.focus();
  }, [focusRequest, submitting]);

  const switchMode = (next: Mode) => {
    setMode(next);
    setValue('');
    setFieldError(null);
    setGeneralError(null);
  };

  /** The passkey prompt, bound to this sign-in, and its answer for the server. */
  const withPasskey = async (trust: { trust_device?: boolean }) => {
    const options = await api.post<unknown>(
      '/auth/two-factor/webauthn/options',
      { challenge: challenge.challenge },
      { signOutOn401: false },
    );
    const response = await prompt(() => confirmWithPasskey(options));
    return api.post<SignedIn>(
      '/auth/two-factor/webauthn/verify',
      { challenge: challenge.challenge, response, ...trust },
      { signOutOn401: false },
    );
  };

  const submit = async () => {
    const trust = trustDevice ? { trust_device: true } : {};
    setSubmitting(true);
    try {
      const response =
        mode === 'webauthn'
          ? await withPasskey(trust)
          : await api.post<SignedIn>(
              '/auth/two-factor',
              {
                challenge: challenge.challenge,
                ...(mode === 'totp' ? { code: value.replace(/\s+/g, '') } : { recovery_code: value.trim() }),
                ...trust,
              },
              { signOutOn401: false },
            );
      if (response?.device_token) storeDeviceToken(email, response.device_token);
      completeLogin(response);
    } catch (error) {
      setSubmitting(false);
      const message = passkeyFailureText(error, TWO_FACTOR_MESSAGES.codeInvalid);
      // The challenge is used up or outlives no lock (5 against 15 minutes): start with the password.
      if (isApiError(error) && (error.status === 429 || message === TWO_FACTOR_MESSAGES.challengeInvalid)) {
        onBack(message);
        return;
      }
      setValue('');
      if (mode !== 'webauthn' && isApiError(error) && error.status === 401) setFieldError(message);
      else setGeneralError(message);
      setFocusRequest((count) => count + 1);
    }
  };

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = validate(mode, value);
    setFieldError(problem);
    setGeneralError(null);
    if (problem) {
      inputRef.current?.focus();
      return;
    }
    void submit();
  };

  // A passkey account sees the device's prompt at once; if the browser wants a click, the button is there.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || mode !== 'webauthn') return;
    started.current = true;
    void submit();
    // Only on the first showing of the step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const totp = mode === 'totp';
  return (
    <form onSubmit={handleSubmit} noValidate aria-labelledby="zweiter-schritt">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id="zweiter-schritt">
            {TEXTS[mode].title}
          </Title>
          <Text mt={4}>{TEXTS[mode].hint}</Text>
        </div>
        <FormError message={generalError} />
        {mode === 'webauthn' ? null : (
          <TextInput
            key={mode}
            ref={inputRef}
            label={totp ? '6-stelliger Code' : 'Wiederherstellungscode'}
            inputMode={totp ? 'numeric' : 'text'}
            autoComplete={totp ? 'one-time-code' : 'off'}
            autoCapitalize="off"
            spellCheck={false}
            autoFocus
            required
            size="md"
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              if (fieldError) setFieldError(validate(mode, event.currentTarget.value));
            }}
            error={fieldError}
            disabled={submitting}
            styles={totp ? { input: { fontSize: 22, letterSpacing: '0.2em' } } : undefined}
          />
        )}
        <Checkbox
          size="md"
          label={`Diesem Gerät ${TRUSTED_DEVICE_DAYS} Tage vertrauen`}
          description="Nur auf einem Gerät wählen, das Sie allein benutzen."
          checked={trustDevice}
          onChange={(event) => setTrustDevice(event.currentTarget.checked)}
          disabled={submitting}
        />
        <Button data-wrap type="submit" loading={submitting} fullWidth size="md">
          {mode === 'webauthn' ? 'Mit Passkey anmelden' : 'Anmelden'}
        </Button>
        <ProofSwitch methods={methods} current={mode} onSwitch={switchMode} disabled={submitting} />
        <Button
          data-wrap
          variant="subtle"
          color="gray"
          size="md"
          onClick={() => onBack()}
          disabled={submitting}
        >
          Zurück zur Anmeldung
        </Button>
      </Stack>
    </form>
  );
}
