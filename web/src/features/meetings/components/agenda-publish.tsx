import { useState } from 'react';
import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconSend } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { PortalEvent } from '@gremienportal/contracts/events';
import type { AgendaItem } from '@gremienportal/contracts/meetings';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { listOfNames, plural } from '../../../lib/plural';
import { agendaPublicationQueryOptions, usePublishAgenda } from '../agenda.api';

/** Documents some of the meeting's roles cannot see: "„Prüfbericht“ (TOP 2) – nicht für Vertreter". */
export function roleWarnings(items: readonly AgendaItem[]): string[] {
  return items.flatMap((item) =>
    item.files
      .filter((file) => (file.unseen_by ?? []).length > 0)
      .map((file) => `„${file.title}“ (TOP ${item.number}) – nicht für ${listOfNames(file.unseen_by!)}`),
  );
}

function PublishSummary({
  eventId,
  items,
  onClose,
}: {
  eventId: number;
  items: readonly AgendaItem[];
  onClose: () => void;
}) {
  const preview = useQuery(agendaPublicationQueryOptions(eventId));
  const publish = usePublishAgenda(eventId);
  const [error, setError] = useState<string | null>(null);

  if (preview.isPending) return <LoadingState label="Empfänger werden ermittelt …" />;
  if (preview.isError)
    return <ErrorState detail={preview.error.message} onRetry={() => void preview.refetch()} />;
  const { published_at: publishedAt, recipients, changes } = preview.data;
  const warnings = roleWarnings(items);
  const unchanged = publishedAt !== null && changes.length === 0;

  const send = () => {
    setError(null);
    publish.mutate(undefined, {
      onSuccess: (res) => {
        notifications.show({ color: 'green', message: res.message });
        onClose();
      },
      onError: (failure) => setError(errorMessage(failure, 'Die Mail konnte nicht gesendet werden.')),
    });
  };

  return (
    <Stack gap="md">
      {publishedAt === null ? (
        <Text>
          {plural(recipients, 'Person', 'Personen')} mit einer Rolle dieser Sitzung{' '}
          {recipients === 1 ? 'erhält' : 'erhalten'} eine Mail mit der Tagesordnung, dem Link zur Sitzung und
          zur Sitzungsmappe. Jede Person sieht darin nur die Dokumente, die sie sehen darf.
        </Text>
      ) : unchanged ? (
        <Text>
          Seit der Veröffentlichung am {formatDateTime(publishedAt)} Uhr haben sich Tagesordnung, Dokumente,
          Zeit und Ort nicht geändert. Es gibt nichts mitzuteilen.
        </Text>
      ) : (
        <>
          <Text>
            Seit der Veröffentlichung am {formatDateTime(publishedAt)} Uhr hat sich geändert (jede Person
            erfährt nur, was sie sehen darf):
          </Text>
          <List spacing={4} aria-label="Änderungen">
            {changes.map((change) => (
              <List.Item key={change}>{change}</List.Item>
            ))}
          </List>
        </>
      )}
      {warnings.length > 0 && !unchanged ? (
        <Alert color="yellow" variant="light" title="Nicht für alle sichtbar">
          <List spacing={4} size="sm">
            {warnings.map((warning) => (
              <List.Item key={warning}>{warning}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {error}
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          {unchanged ? 'Schließen' : 'Abbrechen'}
        </Button>
        {unchanged ? null : (
          <Button leftSection={<IconSend size={18} aria-hidden />} loading={publish.isPending} onClick={send}>
            {publishedAt === null ? 'Tagesordnung senden' : 'Änderungen senden'}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

/**
 * "Tagesordnung veröffentlichen" (admins, decision 181): a summary of who gets the mail and which
 * documents some roles will not see, then one mail to everyone the meeting is for; once
 * published, "Änderungen mitteilen" mails what changed since.
 */
export function AgendaPublish({
  event,
  items,
}: {
  event: Pick<PortalEvent, 'id' | 'agenda_published_at'>;
  items: readonly AgendaItem[];
}) {
  const [opened, setOpened] = useState(false);
  const first = event.agenda_published_at === null;
  const label = first ? 'Tagesordnung veröffentlichen' : 'Änderungen mitteilen';
  return (
    <>
      <Button
        variant={first ? 'filled' : 'default'}
        leftSection={<IconSend size={18} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        {label}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={label} centered size="lg">
        {opened ? <PublishSummary eventId={event.id} items={items} onClose={() => setOpened(false)} /> : null}
      </Modal>
    </>
  );
}
