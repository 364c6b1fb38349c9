import { useId, useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBellRinging } from '@tabler/icons-react';
import { errorMessage } from '../lib/api-client';
import { formatDateTime } from '../lib/format';
import { openConfirmDialog } from './confirm-dialog';

/** What a "Erinnerung senden" needs of its mutation. */
interface ReminderMutation {
  mutate: (
    variables: undefined,
    options: { onSuccess: (result: { message: string }) => void; onError: (error: unknown) => void },
  ) => void;
  isPending: boolean;
}

export interface ReminderButtonProps {
  reminder: ReminderMutation;
  /** When the last reminder went out (ISO), or null. */
  sentAt: string | null;
  /** From when the next one is possible (ISO), or null if now. */
  availableAt: string | null;
  /** How many would get it; none disables the button with `nobodyNote`. */
  pending: number;
  nobodyNote: string;
  /** What the confirmation asks, e.g. who gets which mail. */
  question: string;
  failureMessage: string;
}

/**
 * "Erinnerung senden" of the admins' lists (attendance, Kenntnisnahme): asks first, says why it is
 * disabled, when the last one went out, and the server's German message when it refuses (409, 429).
 */
export function ReminderButton({
  reminder,
  sentAt,
  availableAt,
  pending,
  nobodyNote,
  question,
  failureMessage,
}: ReminderButtonProps) {
  const noteId = useId();
  const [error, setError] = useState<string | null>(null);
  const waiting = availableAt !== null && new Date(availableAt).getTime() > Date.now();
  const nobody = pending === 0;
  const note = waiting
    ? `Die nächste Erinnerung ist ab ${formatDateTime(availableAt)} Uhr möglich.`
    : nobody
      ? nobodyNote
      : null;

  const handleClick = () =>
    openConfirmDialog({
      title: 'Erinnerung senden?',
      message: question,
      confirmLabel: 'Erinnerung senden',
      danger: false,
      onConfirm: () => {
        setError(null);
        reminder.mutate(undefined, {
          onSuccess: (res) => notifications.show({ color: 'green', message: res.message }),
          onError: (failure) => setError(errorMessage(failure, failureMessage)),
        });
      },
    });

  return (
    <Stack gap={4}>
      <Group gap="sm">
        <Button
          variant="light"
          leftSection={<IconBellRinging size={18} aria-hidden />}
          onClick={handleClick}
          loading={reminder.isPending}
          disabled={waiting || nobody}
          aria-describedby={note ? noteId : undefined}
        >
          Erinnerung senden
        </Button>
      </Group>
      {sentAt ? (
        <Text size="sm" c="dimmed">
          Letzte Erinnerung: {formatDateTime(sentAt)} Uhr.
        </Text>
      ) : null}
      {note ? (
        <Text size="sm" c="dimmed" id={noteId}>
          {note}
        </Text>
      ) : null}
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
