import { useId, useState } from 'react';
import { Alert, Button, Group, List, Stack, Text, TextInput } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconBrandGoogle,
  IconCalendarOff,
  IconCalendarPlus,
  IconCheck,
  IconCopy,
  IconRefresh,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorState } from '../../../components/error-state';
import { LoadingState } from '../../../components/loading-state';
import { PageSection } from '../../../components/page-section';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import {
  calendarFeedQueryOptions,
  googleCalendarUrl,
  useCreateCalendarFeed,
  useRevokeCalendarFeed,
  webcalUrl,
  type CalendarFeed,
} from '../calendar-feed.api';

/** The address just created: shown once, with a copy button. */
function NewFeedAddress({ url }: { url: string }) {
  const clipboard = useClipboard({ timeout: 3000 });
  return (
    <Alert color="blue" variant="light" title="Nur jetzt sichtbar">
      <Stack gap="sm">
        <Text size="sm">
          Abonnieren Sie die Adresse jetzt mit einem Tipp, oder kopieren Sie sie und fügen Sie sie in Ihrem
          Kalender als Abonnement (Internetkalender) hinzu. Sie wird nur dieses eine Mal angezeigt.
        </Text>
        <TextInput
          label="Ihre Kalender-Adresse"
          value={url}
          readOnly
          onFocus={(e) => e.currentTarget.select()}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Group gap="sm">
          <Button
            component="a"
            href={webcalUrl(url)}
            leftSection={<IconCalendarPlus size={18} aria-hidden />}
          >
            Im Kalender abonnieren
          </Button>
          <Button
            component="a"
            href={googleCalendarUrl(url)}
            target="_blank"
            rel="noopener noreferrer"
            variant="default"
            leftSection={<IconBrandGoogle size={18} aria-hidden />}
          >
            In Google Kalender hinzufügen
          </Button>
          <Button
            variant="default"
            leftSection={
              clipboard.copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />
            }
            onClick={() => clipboard.copy(url)}
          >
            {clipboard.copied ? 'Adresse kopiert' : 'Adresse kopieren'}
          </Button>
        </Group>
        <List size="sm" spacing={4} aria-label="So geht es">
          <List.Item>
            <b>iPhone und iPad:</b> „Im Kalender abonnieren“ tippen und „Abonnieren“ bestätigen.
          </List.Item>
          <List.Item>
            <b>Android:</b> „In Google Kalender hinzufügen“ öffnen und „Hinzufügen“ wählen; die Termine
            erscheinen nach dem nächsten Abgleich in der Kalender-App.
          </List.Item>
          <List.Item>
            <b>Outlook:</b> „Im Kalender abonnieren“ wählen, oder unter „Kalender hinzufügen“ → „Aus dem
            Internet abonnieren“ die kopierte Adresse einfügen.
          </List.Item>
        </List>
      </Stack>
    </Alert>
  );
}

function FeedState({ feed }: { feed: CalendarFeed }) {
  if (!feed.active) return <Text size="sm">Sie haben derzeit kein Kalender-Abonnement.</Text>;
  return (
    <Text size="sm">
      Eingerichtet am {formatDateTime(feed.created_at)} Uhr.{' '}
      {feed.last_used_at
        ? `Zuletzt abgerufen am ${formatDateTime(feed.last_used_at)} Uhr.`
        : 'Noch von keinem Kalender abgerufen.'}
    </Text>
  );
}

/**
 * "Kalender abonnieren" on the account page (decision 130): a personal address for calendar programs
 * with every event the member sees. The address is shown once; a new one ends the old one.
 */
export function CalendarFeedSection() {
  const headingId = useId();
  const feed = useQuery(calendarFeedQueryOptions());
  const create = useCreateCalendarFeed();
  const revoke = useRevokeCalendarFeed();
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const handleCreate = (renewal: boolean) => {
    setError(null);
    create.mutate(undefined, {
      onSuccess: (created) => {
        setUrl(created.url);
        if (renewal) notifications.show({ color: 'green', message: MEETING_MESSAGES.feedCreated });
      },
      onError: (failure) =>
        setError(errorMessage(failure, 'Die Kalender-Adresse konnte nicht erzeugt werden.')),
    });
  };

  const confirmRenewal = () =>
    openConfirmDialog({
      title: 'Neue Kalender-Adresse erzeugen?',
      message:
        'Die bisherige Adresse funktioniert danach nicht mehr. Kalender, die sie abonniert haben, zeigen keine neuen Termine mehr, bis Sie dort die neue Adresse eintragen.',
      confirmLabel: 'Neue Adresse erzeugen',
      onConfirm: () => handleCreate(true),
    });

  const confirmRevoke = () =>
    openConfirmDialog({
      title: 'Kalender-Abonnement beenden?',
      message:
        'Die Adresse funktioniert danach nicht mehr. Ihr Kalender erhält keine Termine aus dem Portal mehr.',
      confirmLabel: 'Abonnement beenden',
      onConfirm: () => {
        setError(null);
        revoke.mutate(undefined, {
          onSuccess: () => {
            setUrl(null);
            notifications.show({ color: 'green', message: MEETING_MESSAGES.feedRevoked });
          },
          onError: (failure) =>
            setError(errorMessage(failure, 'Das Abonnement konnte nicht beendet werden.')),
        });
      },
    });

  return (
    <PageSection id={headingId} title="Kalender abonnieren" framed={false}>
      <Text size="sm">
        Mit einer persönlichen Kalender-Adresse zeigt Ihr Kalender (etwa Outlook, Apple Kalender, Google
        Kalender oder Thunderbird) alle Sitzungen und Events, die Sie im Portal sehen, und übernimmt
        Änderungen von selbst. Die Adresse ist wie ein Schlüssel: Wer sie kennt, sieht Ihre Termine. Geben Sie
        sie nicht weiter.
      </Text>
      {feed.isPending ? (
        <LoadingState />
      ) : feed.isError ? (
        <ErrorState detail={feed.error.message} onRetry={() => void feed.refetch()} />
      ) : (
        <>
          <FeedState feed={feed.data} />
          {url ? <NewFeedAddress url={url} /> : null}
          {error ? (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          ) : null}
          <Group gap="sm">
            {feed.data.active ? (
              <>
                <Button
                  variant="default"
                  leftSection={<IconRefresh size={18} aria-hidden />}
                  onClick={confirmRenewal}
                  loading={create.isPending}
                  disabled={revoke.isPending}
                >
                  Neue Adresse erzeugen
                </Button>
                <Button
                  data-wrap
                  color="red.9"
                  variant="outline"
                  leftSection={<IconCalendarOff size={18} aria-hidden />}
                  onClick={confirmRevoke}
                  loading={revoke.isPending}
                  disabled={create.isPending}
                >
                  Abonnement beenden
                </Button>
              </>
            ) : (
              <Button
                data-wrap
                leftSection={<IconCalendarPlus size={18} aria-hidden />}
                onClick={() => handleCreate(false)}
                loading={create.isPending}
              >
                Kalender-Adresse erzeugen
              </Button>
            )}
          </Group>
        </>
      )}
    </PageSection>
  );
}
