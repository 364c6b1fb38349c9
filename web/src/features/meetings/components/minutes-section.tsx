import { useState } from 'react';
import { Button, Divider, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconEye } from '@tabler/icons-react';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { Minutes } from '@gremienportal/contracts/meetings';
import { FileIcon, fileKindOf } from '../../../components/file-icon';
import { PageSection } from '../../../components/page-section';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatSizeMb } from '../../../lib/format';
import { downloadMinutes, viewMinutes } from '../meetings.api';
import { MinutesUpload } from './minutes-upload';

function PublishedMinutes({ minutes }: { minutes: Minutes }) {
  const [busy, setBusy] = useState<'view' | 'download' | null>(null);
  const run = async (kind: 'view' | 'download') => {
    setBusy(kind);
    try {
      await (kind === 'view' ? viewMinutes(minutes) : downloadMinutes(minutes));
    } catch (error) {
      notifications.show({
        color: 'red',
        message: errorMessage(error, 'Das Protokoll konnte nicht geladen werden.'),
      });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <FileIcon format={minutes.format} size={26} />
        <Text size="sm">
          {fileKindOf(minutes.format).label}, {formatSizeMb(minutes.size_bytes, { unit: 'bytes' })} –
          veröffentlicht am {formatDateTime(minutes.published_at)} Uhr
        </Text>
      </Group>
      <Group gap="sm">
        <Button
          variant="light"
          leftSection={<IconEye size={18} aria-hidden />}
          loading={busy === 'view'}
          onClick={() => void run('view')}
        >
          Protokoll öffnen
        </Button>
        <Button
          variant="light"
          leftSection={<IconDownload size={18} aria-hidden />}
          loading={busy === 'download'}
          onClick={() => void run('download')}
        >
          Protokoll herunterladen
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * "Protokoll der Sitzung": for everyone once it is published; admins also upload, replace and
 * remove it. Members see nothing while there is none.
 */
export function MinutesSection({
  event,
  isAdmin,
}: {
  event: Pick<PortalEvent, 'id' | 'minutes' | 'start'>;
  isAdmin: boolean;
}) {
  if (!event.minutes && !isAdmin) return null;
  return (
    <PageSection title="Protokoll der Sitzung">
      {event.minutes ? (
        <PublishedMinutes minutes={event.minutes} />
      ) : (
        <Text size="sm" c="dimmed">
          Noch kein Protokoll veröffentlicht. Wer zugesagt hat, erhält eine E-Mail, sobald es hochgeladen ist.
        </Text>
      )}
      {isAdmin ? (
        <>
          <Divider label="Nur für Admins" labelPosition="left" />
          <MinutesUpload event={event} />
        </>
      ) : null}
    </PageSection>
  );
}
