import { useEffect, useId, useRef } from 'react';
import { Anchor, Button, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { API_KEY_PREFIX, API_KEY_SCOPE_LABELS } from '@gremienportal/contracts/api-keys';
import { formatDateTime } from '../../../lib/format';
import { listOfNames } from '../../../lib/plural';
import type { CreatedApiKey } from '../api-keys.api';
import { authorizationHeader } from '../api-keys.rules';

export const SHOWN_ONCE_TEXT = 'Der Schlüssel wird nur jetzt angezeigt. Bewahren Sie ihn sicher auf.';
export const COPIED_TEXT = 'Der Schlüssel ist in die Zwischenablage kopiert.';
export const COPY_FAILED_TEXT =
  'Kopieren ist in diesem Browser nicht möglich. Bitte markieren Sie den Schlüssel im Feld und kopieren Sie ihn selbst.';

interface NewApiKeyTokenProps {
  apiKey: CreatedApiKey;
  /** The token is gone for good after this. */
  onClose: () => void;
}

/**
 * The token of the key just created, the only time it is shown: a read-only field to select,
 * "Kopieren", and how another system sends it. Takes the focus when it appears.
 */
export function NewApiKeyToken({ apiKey, onClose }: NewApiKeyTokenProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const clipboard = useClipboard({ timeout: 5000 });

  useEffect(() => {
    headingRef.current?.focus();
  }, [apiKey.id]);

  const scopes = listOfNames(apiKey.scopes.map((scope) => API_KEY_SCOPE_LABELS[scope]));

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      bg="brand.0"
      style={{ borderColor: 'var(--mantine-color-brand-8)', borderWidth: 2 }}
    >
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconKey size={28} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Title
            order={2}
            size="h3"
            id={headingId}
            ref={headingRef}
            tabIndex={-1}
            style={{ overflowWrap: 'anywhere', outlineOffset: 4 }}
          >
            Neuer API-Schlüssel „{apiKey.name}“
          </Title>
        </Group>
        <Text fw={600}>{SHOWN_ONCE_TEXT}</Text>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            label="Schlüssel"
            value={apiKey.token}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            styles={{ input: { fontFamily: 'monospace' } }}
            style={{ flex: '1 1 18rem', minWidth: 0 }}
          />
          <Button
            size="md"
            leftSection={
              clipboard.copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />
            }
            onClick={() => clipboard.copy(apiKey.token)}
          >
            {clipboard.copied ? 'Kopiert' : 'Kopieren'}
          </Button>
        </Group>
        <Text size="sm" role="status" c={clipboard.error ? 'red.9' : undefined}>
          {clipboard.error ? COPY_FAILED_TEXT : clipboard.copied ? COPIED_TEXT : ''}
        </Text>
        <Stack gap={4}>
          <Text size="sm">
            So nutzt ein anderes System den Schlüssel: Es sendet ihn mit jeder Anfrage an{' '}
            <Code style={{ overflowWrap: 'anywhere' }}>{window.location.origin}/api/v1</Code> in dieser
            Kopfzeile (HTTP-Header):
          </Text>
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {authorizationHeader(`${API_KEY_PREFIX}…`)}
          </Code>
          <Text size="sm">
            Berechtigungen dieses Schlüssels: {scopes}. Gültig bis {formatDateTime(apiKey.expires_at)}.
          </Text>
          <Text size="sm">
            Beschreibung der Schnittstelle:{' '}
            <Anchor href="/api/docs" target="_blank" rel="noopener">
              /api/docs
            </Anchor>
          </Text>
        </Stack>
        <Group>
          <Button
            data-wrap
            variant="default"
            size="md"
            leftSection={<IconCheck size={18} aria-hidden />}
            onClick={onClose}
          >
            Ich habe den Schlüssel sicher aufbewahrt
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
