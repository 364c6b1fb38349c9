import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { FILE_MESSAGES } from '@gremienportal/contracts/files';

/** Spec § 8: "Fehler beim Löschen einer Datei" (file and folder pages), with the server's reason. */
export function DeleteErrorBanner({ error, onClose }: { error: string | null; onClose: () => void }) {
  if (error === null) return null;
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertTriangle aria-hidden />}
      title={FILE_MESSAGES.deleteFailedPage}
      withCloseButton
      onClose={onClose}
    >
      {error || null}
    </Alert>
  );
}
