import { useState } from 'react';
import { Alert, Button, Group, Progress, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { MEETING_MESSAGES, type MinutesRecipients } from '@gremienportal/contracts/meetings';
import { openConfirmDialog } from '../../../components/confirm-dialog';
import { UploadDropzone, type UploadExtension } from '../../../components/upload-dropzone';
import { errorMessage, isApiError, type UploadProgress } from '../../../lib/api-client';
import { useRemoveMinutes, useUploadMinutes } from '../meetings.api';

/** What a Protokoll comes as: documents, as the information file's document formats. */
const MINUTES_EXTENSIONS: readonly UploadExtension[] = ['pdf', 'doc', 'docx', 'odt', 'txt'];

/** Admins: "Protokoll hochladen" or "ersetzen" (drop zone as in the event form, with progress), "entfernen". */
export function MinutesUpload({ event }: { event: Pick<PortalEvent, 'id' | 'minutes' | 'start'> }) {
  const [file, setFile] = useState<File | null>(null);
  const [recipients, setRecipients] = useState<MinutesRecipients>('zugesagt');
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const upload = useUploadMinutes(event.id);
  const remove = useRemoveMinutes(event.id);
  const busy = upload.isPending || remove.isPending;
  const action = event.minutes ? 'Protokoll ersetzen' : 'Protokoll hochladen';

  const send = (chosen: File, confirmFuture: boolean) =>
    upload.mutate(
      { file: chosen, onProgress: setProgress, recipients, confirmFuture },
      {
        onSuccess: () => {
          setFile(null);
          notifications.show({ color: 'green', message: MEETING_MESSAGES.minutesSaved });
        },
        onError: (error) => {
          const fieldErrors = isApiError(error) ? error.errors : undefined;
          const forFile = fieldErrors?.file?.[0] ?? fieldErrors?.data?.[0];
          if (forFile) setFileError(forFile);
          else setGeneralError(errorMessage(error, 'Das Protokoll konnte nicht hochgeladen werden.'));
        },
        onSettled: () => setProgress(null),
      },
    );

  const handleUpload = () => {
    setGeneralError(null);
    if (!file) {
      setFileError(MEETING_MESSAGES.minutesRequired);
      return;
    }
    setFileError(undefined);
    // A Protokoll before the meeting is usually a mistake of the event chosen (decision 181).
    if (Date.parse(event.start) <= Date.now()) {
      send(file, false);
      return;
    }
    openConfirmDialog({
      title: 'Sitzung liegt in der Zukunft',
      message: MEETING_MESSAGES.minutesFuture,
      confirmLabel: 'Trotzdem veröffentlichen',
      danger: false,
      onConfirm: () => send(file, true),
    });
  };

  const handleRemove = () =>
    openConfirmDialog({
      title: 'Protokoll entfernen?',
      message: 'Das Protokoll wird von dieser Sitzung entfernt. Mitglieder sehen es danach nicht mehr.',
      confirmLabel: 'Protokoll entfernen',
      onConfirm: () => {
        setGeneralError(null);
        remove.mutate(undefined, {
          onSuccess: () => notifications.show({ color: 'green', message: MEETING_MESSAGES.minutesRemoved }),
          onError: (error) =>
            setGeneralError(errorMessage(error, 'Das Protokoll konnte nicht entfernt werden.')),
        });
      },
    });

  const known = progress?.percent !== undefined;
  return (
    <Stack gap="sm">
      <UploadDropzone
        label="Protokoll"
        extensions={MINUTES_EXTENSIONS}
        value={file}
        onChange={(next) => {
          setFile(next);
          setFileError(undefined);
        }}
        error={fileError}
        disabled={busy}
        emptyNote={event.minutes ? 'Eine neue Datei ersetzt das veröffentlichte Protokoll.' : undefined}
      />
      {event.minutes ? null : (
        <Radio.Group
          label="Wer wird benachrichtigt?"
          description="Die Mail enthält nur den Link zur Sitzung, nicht das Protokoll."
          value={recipients}
          onChange={(value) => setRecipients(value as MinutesRecipients)}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="zugesagt" label="Wer zugesagt hat" disabled={busy} />
            <Radio value="alle" label="Alle Mitglieder der Rollen dieser Sitzung" disabled={busy} />
          </Stack>
        </Radio.Group>
      )}
      {upload.isPending && progress ? (
        <Stack gap={4}>
          <Progress
            value={known ? progress.percent! : 100}
            animated={!known}
            size="sm"
            aria-label="Fortschritt des Hochladens"
          />
          <Text size="sm" c="dimmed" aria-live="polite">
            {known ? `Wird hochgeladen … ${progress.percent} %` : 'Wird hochgeladen …'}
          </Text>
        </Stack>
      ) : null}
      {generalError ? (
        <Alert color="red" variant="light" role="alert">
          {generalError}
        </Alert>
      ) : null}
      <Group gap="sm">
        <Button
          leftSection={<IconUpload size={18} aria-hidden />}
          onClick={handleUpload}
          loading={upload.isPending}
        >
          {action}
        </Button>
        {event.minutes ? (
          <Button
            color="red.9"
            variant="outline"
            leftSection={<IconTrash size={18} aria-hidden />}
            onClick={handleRemove}
            loading={remove.isPending}
            disabled={upload.isPending}
          >
            Protokoll entfernen
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
