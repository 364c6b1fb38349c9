import { useState } from 'react';
import { Button, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceMobile } from '@tabler/icons-react';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { showSuccessToast } from '../../../components/toasts';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useForgetTrustedDevice, type TwoFactorStatus } from '../two-factor.api';
import { deviceName } from '../two-factor.rules';

/** "Diesem Gerät 30 Tage vertrauen": the devices, each with "Nicht mehr vertrauen". */
export function TrustedDevices({ devices }: { devices: TwoFactorStatus['trusted_devices'] }) {
  const forget = useForgetTrustedDevice();
  const [error, setError] = useState<string | null>(null);
  if (devices.length === 0) return null;

  const handleForget = (id: number, name: string) =>
    openConfirmDialog({
      title: `${name} nicht mehr vertrauen?`,
      message: 'Die nächste Anmeldung auf diesem Gerät fragt wieder nach dem Code.',
      confirmLabel: 'Nicht mehr vertrauen',
      onConfirm: () => {
        setError(null);
        forget.mutate(id, {
          onSuccess: () => showSuccessToast(`${name} ist kein vertrauenswürdiges Gerät mehr.`),
          onError: (failure) => setError(errorMessage(failure, 'Das Vertrauen konnte nicht beendet werden.')),
        });
      },
    });

  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Vertrauenswürdige Geräte
      </Title>
      <Text size="sm" c="dimmed">
        Auf diesen Geräten fragt die Anmeldung bis zum genannten Tag nicht nach einem Code. Eine Änderung des
        Passworts oder das Ausschalten der Zwei-Faktor-Anmeldung beendet dieses Vertrauen für alle Geräte.
      </Text>
      <FormError message={error} />
      <List spacing="sm" listStyleType="none" aria-label="Vertrauenswürdige Geräte">
        {devices.map((device) => {
          const name = deviceName(device.label);
          return (
            <List.Item key={device.id}>
              <Group gap="sm" wrap="nowrap" align="flex-start" justify="space-between">
                <Group gap="sm" wrap="nowrap" align="flex-start">
                  <ThemeIcon size="md" radius="xl" variant="light" aria-hidden>
                    <IconDeviceMobile size={16} />
                  </ThemeIcon>
                  <Stack gap={0}>
                    <Text fw={500}>{name}</Text>
                    <Text size="sm" c="dimmed">
                      Vertraut seit {formatDate(device.created_at)} · bis {formatDate(device.expires_at)}
                    </Text>
                  </Stack>
                </Group>
                <Button
                  data-wrap
                  variant="subtle"
                  color="red"
                  size="md"
                  aria-label={`${name} (vertraut seit ${formatDate(device.created_at)}) nicht mehr vertrauen`}
                  onClick={() => handleForget(device.id, name)}
                  loading={forget.isPending && forget.variables === device.id}
                >
                  Nicht mehr vertrauen
                </Button>
              </Group>
            </List.Item>
          );
        })}
      </List>
    </Stack>
  );
}
