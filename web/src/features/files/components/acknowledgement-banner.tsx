import { useId } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconChecks, IconEyeCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ACKNOWLEDGEMENT_MESSAGES } from '@gremienportal/contracts/file-messages';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useConfirmAcknowledgement } from '../acknowledgements.api';
import { fileQueryOptions, type StoredFile } from '../files.api';

/** "2026-12-01" → "01.12.2026" (a Berlin day, as the server stores it). */
export const formatDay = (day: string) => day.split('-').reverse().join('.');

interface AcknowledgementBannerProps {
  file: StoredFile;
  /** Whether the member opened or saved the document on this page. */
  opened: boolean;
}

/**
 * Kenntnisnahme (decision 131) on the document and in the file dialog: asks the member to confirm
 * and, once they have, says when. Listings leave out the member's confirmation, so the document is
 * read on its own. The button waits until the document was opened or saved (the server refuses
 * earlier, 409) and says so; a document that is no longer new was opened before, or marked read,
 * in which case the server's answer explains.
 */
export function AcknowledgementBanner({ file, opened }: AcknowledgementBannerProps) {
  const hintId = useId();
  const details = useQuery({ ...fileQueryOptions(file.id), enabled: file.acknowledged_at === undefined });
  const current = file.acknowledged_at === undefined ? details.data : file;
  const confirm = useConfirmAcknowledgement(file.id);
  if (!file.acknowledgement_required || !current) return null;

  const confirmedAt = confirm.data?.data.confirmed_at ?? current.acknowledged_at;
  if (confirmedAt) {
    return (
      <Alert
        color="green"
        variant="light"
        icon={<IconChecks aria-hidden />}
        title={ACKNOWLEDGEMENT_MESSAGES.confirmed}
      >
        {ACKNOWLEDGEMENT_MESSAGES.confirmedAt(`${formatDateTime(confirmedAt)} Uhr`)}
      </Alert>
    );
  }

  const canConfirm = opened || current.new === false;
  const due = current.acknowledgement_due;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconEyeCheck aria-hidden />}
      // A request to act, not an alarm: a named region rather than Mantine's role "alert".
      role="region"
      aria-label="Bitte um Kenntnisnahme"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm" fw={600}>
          {due ? ACKNOWLEDGEMENT_MESSAGES.bannerDue(formatDay(due)) : ACKNOWLEDGEMENT_MESSAGES.banner}
        </Text>
        <Button
          size="sm"
          leftSection={<IconChecks size={18} aria-hidden />}
          disabled={!canConfirm}
          loading={confirm.isPending}
          aria-describedby={canConfirm ? undefined : hintId}
          onClick={() => confirm.mutate()}
        >
          {ACKNOWLEDGEMENT_MESSAGES.confirm}
        </Button>
        {canConfirm ? null : (
          <Text size="sm" id={hintId}>
            {ACKNOWLEDGEMENT_MESSAGES.openFirst}
          </Text>
        )}
        {confirm.isError ? (
          <Text size="sm" c="red.9" role="alert">
            {errorMessage(confirm.error, 'Die Kenntnisnahme konnte nicht gespeichert werden.')}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
