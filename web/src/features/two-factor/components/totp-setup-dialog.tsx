import { useEffect, useState, type FormEvent } from 'react';
import { Button, Code, Group, List, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { msg } from '@gremienportal/contracts/rules';
import { TWO_FACTOR_MESSAGES } from '@gremienportal/contracts/two-factor-rules';
import { FormError } from '../../../components/form-error';
import { LoadingState } from '../../../components/loading-state';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useConfirmTotp, useStartTotpSetup, type TotpSetupResponse } from '../two-factor.api';
import { groupSecret, qrImageSource } from '../two-factor.rules';
import { RecoveryCodesPanel } from './recovery-codes-panel';

const STEP_TITLES = ['QR-Code scannen', 'Code eingeben', 'Wiederherstellungscodes aufbewahren'] as const;

function ScanStep({ setup, onNext }: { setup: TotpSetupResponse; onNext: () => void }) {
  const clipboard = useClipboard({ timeout: 3000 });
  return (
    <Stack gap="md">
      <List type="ordered" spacing="xs">
        <List.Item>
          Installieren Sie eine Authenticator-App auf Ihrem Telefon, falls Sie noch keine haben (zum Beispiel
          die App Ihres Telefonherstellers, Google Authenticator oder Microsoft Authenticator).
        </List.Item>
        <List.Item>Tippen Sie in der App auf „Hinzufügen“ und scannen Sie diesen QR-Code.</List.Item>
      </List>
      <img
        src={qrImageSource(setup.qr_svg)}
        alt="QR-Code zum Einrichten der Authenticator-App"
        width={220}
        height={220}
        style={{ alignSelf: 'center', background: 'white', padding: 8, maxWidth: '100%', height: 'auto' }}
      />
      <Stack gap={6}>
        <Text size="sm">Kein Scannen möglich? Geben Sie in der App stattdessen diesen Schlüssel ein:</Text>
        <Code
          block
          data-testid="totp-secret"
          fz="lg"
          // Wraps between the blocks on a phone instead of scrolling sideways.
          style={{ whiteSpace: 'normal', letterSpacing: '0.08em', wordSpacing: '0.4em', textAlign: 'center' }}
        >
          {groupSecret(setup.secret)}
        </Code>
        <Group gap="sm">
          <Button
            data-wrap
            variant="default"
            size="md"
            leftSection={clipboard.copied ? <IconCheck aria-hidden /> : <IconCopy aria-hidden />}
            onClick={() => clipboard.copy(setup.secret)}
          >
            {clipboard.copied ? 'Schlüssel kopiert' : 'Schlüssel kopieren'}
          </Button>
        </Group>
      </Stack>
      <Button data-wrap size="md" onClick={onNext}>
        Weiter
      </Button>
    </Stack>
  );
}

function ConfirmStep({
  onBack,
  onConfirmed,
}: {
  onBack: () => void;
  onConfirmed: (codes: string[]) => void;
}) {
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s+/g, '');
    const codeProblem = /^\d{6}$/.test(digits) ? null : TWO_FACTOR_MESSAGES.codeFormat;
    const passwordProblem = password === '' ? msg.required('Aktuelles Passwort') : null;
    setError(codeProblem);
    setPasswordError(passwordProblem);
    if (codeProblem || passwordProblem) return;
    confirm.mutate(
      { code: digits, current_password: password },
      {
        onSuccess: (body) => onConfirmed(body.recovery_codes),
        onError: (failure) => {
          // A wrong password keeps the code typed; a wrong code is typed anew.
          const wrongPassword = isApiError(failure) ? failure.errors?.current_password?.[0] : undefined;
          if (wrongPassword) {
            setPasswordError(wrongPassword);
            return;
          }
          setCode('');
          setError(
            isApiError(failure) && failure.errors?.code?.[0]
              ? failure.errors.code[0]
              : errorMessage(failure, TWO_FACTOR_MESSAGES.codeInvalid),
          );
        },
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Text>Geben Sie zur Bestätigung den 6‑stelligen Code ein, den die App jetzt anzeigt.</Text>
        <TextInput
          label="6-stelliger Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          required
          size="md"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          error={error}
          disabled={confirm.isPending}
          styles={{ input: { fontSize: 22, letterSpacing: '0.2em' } }}
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
          disabled={confirm.isPending}
        />
        <Group justify="space-between" gap="sm">
          <Button data-wrap variant="default" size="md" onClick={onBack} disabled={confirm.isPending}>
            Zurück
          </Button>
          <Button data-wrap type="submit" size="md" loading={confirm.isPending}>
            Bestätigen
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface TotpSetupDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** "Authenticator-App einrichten" in three steps: scan, confirm with a code, keep the recovery codes. */
export function TotpSetupDialog({ opened, onClose }: TotpSetupDialogProps) {
  const start = useStartTotpSetup();
  const [step, setStep] = useState<0 | 1 | 2>(0);
  const [codes, setCodes] = useState<string[]>([]);
  const { mutate, reset } = start;

  // Every opening asks for a fresh secret; the server keeps it pending until a code confirms it.
  useEffect(() => {
    if (!opened) return;
    setStep(0);
    setCodes([]);
    mutate();
  }, [opened, mutate]);

  const handleClose = () => {
    setCodes([]);
    reset();
    onClose();
  };
  const showingCodes = step === 2;

  return (
    <Modal
      opened={opened}
      onClose={handleClose}
      title={
        <>
          Authenticator-App einrichten
          <Text component="span" display="block" size="sm" fw={500} c="dimmed" mt={2}>
            Schritt {step + 1} von 3: {STEP_TITLES[step]}
          </Text>
        </>
      }
      size="lg"
      centered
      // The codes are shown once: closing only through "Ich habe die Codes sicher aufbewahrt".
      withCloseButton={!showingCodes}
      closeOnEscape={!showingCodes}
      closeOnClickOutside={!showingCodes}
      closeButtonProps={{ 'aria-label': 'Einrichtung abbrechen' }}
      // The title takes the header's width, so it breaks between words rather than after "Authenticator-".
      styles={{ title: { flex: 1, minWidth: 0 } }}
    >
      {showingCodes ? (
        <RecoveryCodesPanel codes={codes} onDone={handleClose} />
      ) : start.isError ? (
        <Stack gap="md">
          <FormError message={errorMessage(start.error, 'Die Einrichtung konnte nicht gestartet werden.')} />
          <Button data-wrap variant="default" size="md" onClick={handleClose}>
            Schließen
          </Button>
        </Stack>
      ) : !start.data ? (
        <LoadingState />
      ) : step === 0 ? (
        <ScanStep setup={start.data} onNext={() => setStep(1)} />
      ) : (
        <ConfirmStep
          onBack={() => setStep(0)}
          onConfirmed={(recoveryCodes) => {
            // A passkey brought the recovery codes already; they stay as they are.
            if (recoveryCodes.length === 0) {
              showSuccessToast('Die Authenticator-App ist eingerichtet.');
              handleClose();
              return;
            }
            setCodes(recoveryCodes);
            setStep(2);
          }}
        />
      )}
    </Modal>
  );
}
