import { useState } from 'react';
import { Alert, Button, Group, List, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceMobile, IconShieldCheck, IconShieldOff, IconAlertTriangle } from '@tabler/icons-react';
import { RECOVERY_CODE_COUNT } from '@gremienportal/contracts/two-factor-rules';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { plural } from '../../../lib/plural';
import { useRenewRecoveryCodes, type TwoFactorStatus } from '../account.api';
import { deviceName } from '../two-factor.rules';
import { DisableTwoFactorDialog } from './disable-two-factor-dialog';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { TotpSetupDialog } from './totp-setup-dialog';

export const TWO_FACTOR_REQUIRED_NOTICE =
  'Für Ihre Rolle ist die Zwei-Faktor-Anmeldung vorgeschrieben. Bitte richten Sie sie jetzt ein.';

/**
 * "3 Wiederherstellungscodes von 10 übrig", "1 Wiederherstellungscode von 10 übrig": the noun next
 * to the count that it agrees with ("1 von 10 Wiederherstellungscode" would be wrong German).
 */
export function recoveryCodesLeftText(left: number): string {
  return `${plural(left, 'Wiederherstellungscode', 'Wiederherstellungscodes')} von ${RECOVERY_CODE_COUNT} übrig`;
}

function TrustedDevices({ devices }: { devices: TwoFactorStatus['trusted_devices'] }) {
  if (devices.length === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Vertrauenswürdige Geräte
      </Title>
      <Text size="sm" c="dimmed">
        Auf diesen Geräten fragt die Anmeldung bis zum genannten Tag nicht nach einem Code. Beim Ausschalten
        der Zwei-Faktor-Anmeldung verlieren alle Geräte dieses Vertrauen.
      </Text>
      <List spacing="xs" listStyleType="none" aria-label="Vertrauenswürdige Geräte">
        {devices.map((device) => (
          <List.Item key={device.id}>
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon size="md" radius="xl" variant="light" aria-hidden>
                <IconDeviceMobile size={16} />
              </ThemeIcon>
              <Stack gap={0}>
                <Text fw={500}>{deviceName(device.label)}</Text>
                <Text size="sm" c="dimmed">
                  Vertraut seit {formatDate(device.created_at)} · bis {formatDate(device.expires_at)}
                </Text>
              </Stack>
            </Group>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** "Zwei-Faktor-Anmeldung" on the account page (issue 18): state, set-up, new codes, turning off. */
export function TwoFactorSection({ status }: { status: TwoFactorStatus }) {
  const [dialog, setDialog] = useState<'setup' | 'disable' | null>(null);
  const [renewedCodes, setRenewedCodes] = useState<string[] | null>(null);
  const renew = useRenewRecoveryCodes();
  const active = status.totp;

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
    <Stack gap="md" component="section" aria-labelledby="zwei-faktor">
      <Title order={2} size="h3" id="zwei-faktor">
        Zwei-Faktor-Anmeldung
      </Title>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size="lg" radius="xl" variant="light" color={active ? 'green' : 'gray'} aria-hidden>
          {active ? <IconShieldCheck size={20} /> : <IconShieldOff size={20} />}
        </ThemeIcon>
        <Stack gap={2}>
          <Text fw={600}>{active ? 'Eingeschaltet mit Authenticator-App' : 'Ausgeschaltet'}</Text>
          <Text size="sm">
            {active
              ? recoveryCodesLeftText(status.recovery_codes_left)
              : 'Zusätzlich zum Passwort fragt die Anmeldung nach einem Code aus einer App auf Ihrem Telefon. So bleibt Ihr Konto geschützt, auch wenn jemand Ihr Passwort kennt.'}
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
        {active ? (
          <>
            <Button data-wrap variant="default" size="md" onClick={handleRenew} loading={renew.isPending}>
              Neue Wiederherstellungscodes erzeugen
            </Button>
            <Button data-wrap variant="outline" color="red" size="md" onClick={() => setDialog('disable')}>
              Zwei-Faktor-Anmeldung ausschalten
            </Button>
          </>
        ) : (
          <Button data-wrap size="md" onClick={() => setDialog('setup')}>
            Authenticator-App einrichten
          </Button>
        )}
      </Group>
      {active ? <TrustedDevices devices={status.trusted_devices} /> : null}

      <TotpSetupDialog opened={dialog === 'setup'} onClose={() => setDialog(null)} />
      <DisableTwoFactorDialog opened={dialog === 'disable'} onClose={() => setDialog(null)} />
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
    </Stack>
  );
}
