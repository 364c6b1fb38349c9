import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Radio, SimpleGrid, Stack } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import {
  NOTIFICATION_FREQUENCIES,
  NOTIFICATION_FREQUENCY_LABELS,
  NOTIFICATION_MESSAGES,
  type NotificationFrequency,
} from '@gremienportal/contracts/notifications';
import { ErrorState } from '../../../components/error-state';
import touch from '../../../components/touch-choice.module.css';
import { LoadingState } from '../../../components/loading-state';
import { PageSection } from '../../../components/page-section';
import { errorMessage } from '../../../lib/api-client';
import {
  notificationSettingsQueryOptions,
  useSaveNotificationSettings,
  type NotificationSettings,
} from '../notifications.api';

const CHOICES: { key: keyof NotificationSettings; label: string }[] = [
  { key: 'files', label: NOTIFICATION_MESSAGES.filesLabel },
  { key: 'events', label: NOTIFICATION_MESSAGES.eventsLabel },
];

/** The two choices; what is chosen stays when saving fails, and a change clears the last message. */
function NotificationForm({ saved }: { saved: NotificationSettings }) {
  const [values, setValues] = useState<NotificationSettings>(saved);
  const save = useSaveNotificationSettings();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const unchanged = values.files === saved.files && values.events === saved.events;

  const choose = (key: keyof NotificationSettings, value: string) => {
    setValues((current) => ({ ...current, [key]: value as NotificationFrequency }));
    setMessage(null);
  };

  return (
    <form
      noValidate
      aria-label={NOTIFICATION_MESSAGES.title}
      onSubmit={(event) => {
        event.preventDefault();
        setMessage(null);
        save.mutate(values, {
          onSuccess: (response) =>
            setMessage({ ok: true, text: response.message || NOTIFICATION_MESSAGES.saved }),
          onError: (error) =>
            setMessage({ ok: false, text: errorMessage(error, NOTIFICATION_MESSAGES.saveFailed) }),
        });
      }}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {CHOICES.map(({ key, label }) => (
            <Radio.Group key={key} label={label} value={values[key]} onChange={(value) => choose(key, value)}>
              <Stack gap="xs" mt="xs">
                {NOTIFICATION_FREQUENCIES.map((frequency) => (
                  <Radio
                    key={frequency}
                    value={frequency}
                    label={NOTIFICATION_FREQUENCY_LABELS[frequency]}
                    disabled={save.isPending}
                    classNames={{ root: touch.choice }}
                  />
                ))}
              </Stack>
            </Radio.Group>
          ))}
        </SimpleGrid>
        {message ? (
          <Alert color={message.ok ? 'green' : 'red'} variant="light" role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </Alert>
        ) : null}
        <Group>
          <Button
            type="submit"
            leftSection={<IconDeviceFloppy size={18} aria-hidden />}
            loading={save.isPending}
            disabled={unchanged && !save.isError}
          >
            Speichern
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The address notification mails link to: `/account#benachrichtigungen`. */
const SETTINGS_ANCHOR = 'benachrichtigungen';

/**
 * "Benachrichtigungen" on /account (decision 131): for new documents and for new or changed events,
 * sofort, täglich, wöchentlich or nie. Who is notified at all stays the admins' choice.
 */
export function NotificationSettingsSection() {
  const settings = useQuery(notificationSettingsQueryOptions());
  const section = useRef<HTMLDivElement>(null);
  // Every notification mail links here (`/account#benachrichtigungen`, also List-Unsubscribe).
  const loaded = settings.isSuccess;
  useEffect(() => {
    if (loaded && window.location.hash === `#${SETTINGS_ANCHOR}`) section.current?.scrollIntoView();
  }, [loaded]);
  return (
    <PageSection
      title={NOTIFICATION_MESSAGES.title}
      description={NOTIFICATION_MESSAGES.intro}
      framed={false}
      anchor={SETTINGS_ANCHOR}
      ref={section}
    >
      {settings.data ? (
        <NotificationForm saved={settings.data} />
      ) : settings.isError ? (
        <ErrorState detail={settings.error.message} onRetry={() => void settings.refetch()} />
      ) : (
        <LoadingState />
      )}
    </PageSection>
  );
}
