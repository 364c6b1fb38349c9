import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { EVENT_MESSAGES } from '@gremienportal/contracts/events';

/** Spec § 8: "Fehler beim Löschen eines Events", with the server's reason when there is one. */
export function DeleteErrorBanner({ error, onClose }: { error: string | null; onClose: () => void }) {
  if (error === null) return null;
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertTriangle aria-hidden />}
      title={EVENT_MESSAGES.deleteFailed}
      withCloseButton
      onClose={onClose}
    >
      {error || null}
    </Alert>
  );
}
