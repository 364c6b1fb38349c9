import { Alert, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

interface FormErrorProps {
  /** One message or several (e.g. the server's general message and unplaced field messages). */
  message?: string | readonly string[] | null;
  title?: string;
}

/** The red alert for a form's general error; renders nothing without a message. */
export function FormError({ message, title }: FormErrorProps) {
  const list: readonly string[] = typeof message === 'string' ? [message] : (message ?? []);
  // The server often repeats its general message under a field; show each text once.
  const messages = [...new Set(list.filter((text) => text.trim() !== ''))];
  if (messages.length === 0) return null;
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle aria-hidden />} role="alert">
      {messages.length === 1 ? (
        messages[0]
      ) : (
        <List size="sm" spacing={4}>
          {messages.map((text) => (
            <List.Item key={text}>{text}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
