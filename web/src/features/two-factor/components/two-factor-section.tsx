import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconShieldCheck, IconShieldOff, IconAlertTriangle } from '@tabler/icons-react';
import { RECOVERY_CODE_COUNT } from '@gremienportal/contracts/two-factor-rules';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { PageSection } from '../../../components/page-section';
import { errorMessage } from '../../../lib/api-client';
import { passkeysSupported } from '../../../lib/passkeys';
import { plural } from '../../../lib/plural';
import { useRenewRecoveryCodes, type TwoFactorStatus } from '../two-factor.api';
import { DisableTwoFactorDialog, TWO_FACTOR_RENEW } from './disable-two-factor-dialog';
import { AddPasskeyDialog, PasskeyList } from './passkeys-panel';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TotpSetupDialog } from './totp-setup-dialog';
import { TrustedDevices } from './trusted-devices';

export const TWO_FACTOR_REQUIRED_NOTICE =
  'Für Ihre Rolle ist die Zwei-Faktor-Anmeldung vorgeschrieben. Bitte richten Sie sie jetzt ein.';

/**
 * "3 Wiederherstellungscodes von 10 übrig", "1 Wiederherstellungscode von 10 übrig": the noun next
 * to the count that it agrees with ("1 von 10 Wiederherstellungscode" would be wrong German).
 */
export function recoveryCodesLeftText(left: number): string {
  return `${plural(left, 'Wiederherstellungscode', 'Wiederherstellungscodes')} von ${RECOVERY_CODE_COUNT} übrig`;
}

/** "Mit Authenticator-App und 2 Passkeys": what protects the account. */
export function activeMethodsText(status: Pick<TwoFactorStatus, 'totp' | 'webauthn'>): string {
  // "mit Passkey" for one, "mit 2 Passkeys" for several.
  const keys =
    status.webauthn === 0
      ? null
      : status.webauthn === 1
        ? 'Passkey'
        : plural(status.webauthn, 'Passkey', 'Passkeys');
  const parts = [status.totp ? 'Authenticator-App' : null, keys].filter(Boolean);
  return `Eingeschaltet mit ${parts.join(' und ')}`;
}

/**
 * "Zwei-Faktor-Anmeldung" on the account page (decision 126): state, authenticator app and passkeys,
 * new recovery codes, trusted devices, turning off.
 */
export function TwoFactorSection({ status }: { status: TwoFactorStatus }) {
  const [dialog, setDialog] = useState<'setup' | 'passkey' | 'disable' | null>(null);
  const [renewedCodes, setRenewedCodes] = useState<string[] | null>(null);
  const renew = useRenewRecoveryCodes();
  const active = status.totp || status.webauthn > 0;
  const canAddPasskey = passkeysSupported();

  const handleRenew = () =>
    openConfirmDialog({
      title: 'Neue Wiederherstellungscodes erzeugen?',
      message:
        'Sie erhalten 10 neue Codes. Ihre bisherigen Wiederherstellungscodes gelten danach nicht mehr, auch die noch unbenutzten.',
      confirmLabel: 'Neue Codes erzeugen',
      danger: false,
      onConfirm: () => renew.mutate(undefined, { onSuccess: (body) => setRenewedCodes(body.recovery_codes) }),
    });

  return (
    <PageSection id="zwei-faktor" title="Zwei-Faktor-Anmeldung" framed={false}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size="lg" radius="xl" variant="light" color={active ? 'green' : 'gray'} aria-hidden>
          {active ? <IconShieldCheck size={20} /> : <IconShieldOff size={20} />}
        </ThemeIcon>
        <Stack gap={2}>
          <Text fw={600}>{active ? activeMethodsText(status) : 'Ausgeschaltet'}</Text>
          <Text size="sm">
            {active
              ? recoveryCodesLeftText(status.recovery_codes_left)
              : 'Zusätzlich zum Passwort fragt die Anmeldung nach einem Code aus einer App auf Ihrem Telefon oder nach einem Passkey (Fingerabdruck, Gesichtserkennung, Sicherheitsschlüssel). So bleibt Ihr Konto geschützt, auch wenn jemand Ihr Passwort kennt.'}
          </Text>
        </Stack>
      </Group>
      {status.required && !active ? (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />}>
          {TWO_FACTOR_REQUIRED_NOTICE}
        </Alert>
      ) : null}
      {active && status.recovery_codes_left <= 2 ? (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />}>
          Es sind nur noch wenige Wiederherstellungscodes übrig. Erzeugen Sie bitte neue.
        </Alert>
      ) : null}
      <FormError
        message={
          renew.isError ? errorMessage(renew.error, 'Es konnten keine neuen Codes erzeugt werden.') : null
        }
      />
      <Group gap="sm">
        {status.totp ? null : (
          <Button
            data-wrap
            size="md"
            variant={active ? 'default' : 'filled'}
            onClick={() => setDialog('setup')}
          >
            Authenticator-App einrichten
          </Button>
        )}
        {canAddPasskey ? (
          <Button data-wrap size="md" variant="default" onClick={() => setDialog('passkey')}>
            Passkey hinzufügen
          </Button>
        ) : null}
        {active ? (
          <>
            <Button data-wrap variant="default" size="md" onClick={handleRenew} loading={renew.isPending}>
              Neue Wiederherstellungscodes erzeugen
            </Button>
            <Button data-wrap variant="outline" color="red" size="md" onClick={() => setDialog('disable')}>
              {status.required ? TWO_FACTOR_RENEW.title : 'Zwei-Faktor-Anmeldung ausschalten'}
            </Button>
          </>
        ) : null}
      </Group>
      {canAddPasskey ? null : (
        <Text size="sm" c="dimmed">
          Dieser Browser unterstützt keine Passkeys. Nutzen Sie die Authenticator-App oder einen aktuellen
          Browser.
        </Text>
      )}
      <PasskeyList status={status} />
      {active ? <TrustedDevices devices={status.trusted_devices} /> : null}

      <TotpSetupDialog opened={dialog === 'setup'} onClose={() => setDialog(null)} />
      <AddPasskeyDialog opened={dialog === 'passkey'} onClose={() => setDialog(null)} />
      <DisableTwoFactorDialog
        opened={dialog === 'disable'}
        status={status}
        onClose={() => setDialog(null)}
        onDisabled={() => status.required && setDialog('setup')}
      />
      <Modal
        opened={renewedCodes !== null}
        onClose={() => setRenewedCodes(null)}
        title="Neue Wiederherstellungscodes"
        size="lg"
        centered
        withCloseButton={false}
        closeOnEscape={false}
        closeOnClickOutside={false}
      >
        <RecoveryCodesPanel codes={renewedCodes ?? []} onDone={() => setRenewedCodes(null)} />
      </Modal>
    </PageSection>
  );
}
