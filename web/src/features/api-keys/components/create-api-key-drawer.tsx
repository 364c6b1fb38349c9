import { Drawer, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { SMALL_SCREEN_QUERY } from '../../../components/data-table-defaults';
import type { CreatedApiKey } from '../api-keys.api';
import { CreateApiKeyForm } from './create-api-key-form';

/** The drawer's title reads as the heading it is. */
const DRAWER_STYLES = { title: { fontSize: 'var(--mantine-h3-font-size)', fontWeight: 650 } };

interface CreateApiKeyDrawerProps {
  opened: boolean;
  onClose: () => void;
  /** After a create the drawer closes and the page shows the token; the focus goes there. */
  onCreated: (key: CreatedApiKey) => void;
  /** Off once a key is created: the token box takes the focus instead of the button. */
  returnFocus: boolean;
}

/** "Neuer API-Schlüssel" beside the list, full screen on phones, as "Nutzer anlegen" on /user. */
export function CreateApiKeyDrawer({ opened, onClose, onCreated, returnFocus }: CreateApiKeyDrawerProps) {
  const phone = useMediaQuery(SMALL_SCREEN_QUERY);
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      title="Neuer API-Schlüssel"
      position="right"
      size={phone ? '100%' : 'lg'}
      styles={DRAWER_STYLES}
      returnFocus={returnFocus}
    >
      <Text size="sm" c="dimmed" mb="md">
        Der Schlüssel handelt mit Ihren Rechten, beschränkt auf die gewählten Berechtigungen. Er wird nach dem
        Anlegen einmal angezeigt.
      </Text>
      <CreateApiKeyForm
        onCancel={onClose}
        onCreated={(key) => {
          onCreated(key);
          onClose();
        }}
      />
    </Drawer>
  );
}
