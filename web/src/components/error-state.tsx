import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

export const LOAD_ERROR_MESSAGE = 'Daten konnten nicht geladen werden';

interface ErrorStateProps {
  message?: string;
  /** A detail such as the network message. */
  detail?: string;
  onRetry?: () => void;
}

/** Shown when data for a page could not be loaded (product.md P12). */
export function ErrorState({ message = LOAD_ERROR_MESSAGE, detail, onRetry }: ErrorStateProps) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert" title={message}>
      <Stack gap="sm" align="flex-start">
        {detail && detail !== message ? <Text size="sm">{detail}</Text> : null}
        {onRetry ? (
          <Button variant="default" size="xs" onClick={onRetry}>
            Erneut versuchen
          </Button>
        ) : null}
      </Stack>
    </Alert>
  );
}
