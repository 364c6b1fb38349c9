import type { CreatedApiKey } from '../api-keys.api';
import { CreateApiKeyForm } from './create-api-key-form';
import { FormDrawer } from '../../../components/form-drawer';

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
  return (
    <FormDrawer
      opened={opened}
      onClose={onClose}
      title="Neuer API-Schlüssel"
      note="Der Schlüssel handelt mit Ihren Rechten, beschränkt auf die gewählten Berechtigungen. Er wird nach dem Anlegen einmal angezeigt."
      returnFocus={returnFocus}
    >
      <CreateApiKeyForm
        onCancel={onClose}
        onCreated={(key) => {
          onCreated(key);
          onClose();
        }}
      />
    </FormDrawer>
  );
}
