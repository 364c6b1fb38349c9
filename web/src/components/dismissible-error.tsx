import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

interface DismissibleErrorProps {
  /** The German banner text of product.md P12, e.g. "Fehler beim Löschen eines Events". */
  title: string;
  /** null hides the banner; a text adds the server's reason below the title. */
  error: string | null;
  onClose: () => void;
}

/** A red banner above a list or page after a failed action, closed by the user. */
export function DismissibleError({ title, error, onClose }: DismissibleErrorProps) {
  if (error === null) return null;
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      icon={<IconAlertTriangle aria-hidden />}
      title={title}
      withCloseButton
      onClose={onClose}
    >
      {error || null}
    </Alert>
  );
}
