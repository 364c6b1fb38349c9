import { useEffect, useRef, useState } from 'react';
import { Box, Button, Group, Loader, Text } from '@mantine/core';
import { IconBook2 } from '@tabler/icons-react';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { MEETING_MESSAGES } from '@gremienportal/contracts/meetings';
import { isApiError, TRANSPORT_MESSAGES } from '../../../lib/api-client';
import { formatSizeMb } from '../../../lib/format';
import { downloadMeetingBook, type DownloadProgress } from '../meetings.api';
import { PageSection } from '../../../components/page-section';

/** Before this long the button's own spinner is enough; after it the page says what is going on. */
export const SLOW_AFTER_MS = 1000;

/** The German text for a failed Sitzungsmappe: busy (503), the server's word on a 4xx, else "failed". */
export function bookErrorText(error: unknown): string {
  if (!isApiError(error)) return MEETING_MESSAGES.bookFailed;
  if (error.kind !== 'http') return error.message;
  if (error.status === 503) {
    return error.message === TRANSPORT_MESSAGES.status(503) ? MEETING_MESSAGES.bookBusy : error.message;
  }
  return error.status >= 400 && error.status < 500 ? error.message : MEETING_MESSAGES.bookFailed;
}

function progressText(progress: DownloadProgress | null): string {
  if (!progress || progress.received === 0) return 'Sitzungsmappe wird erstellt …';
  const received = formatSizeMb(progress.received, { unit: 'bytes' });
  return progress.total
    ? `Sitzungsmappe wird heruntergeladen … ${received} von ${formatSizeMb(progress.total, { unit: 'bytes' })}`
    : `Sitzungsmappe wird heruntergeladen … ${received} empfangen`;
}

/**
 * "Sitzungsmappe herunterladen": all papers of the meeting the member may see, in one PDF built
 * for them. Building it may take seconds, so after one second a loader says so, then counts the
 * bytes as they arrive.
 */
export function BookDownload({ event }: { event: Pick<PortalEvent, 'id' | 'agenda_count'> }) {
  const [running, setRunning] = useState(false);
  const [slow, setSlow] = useState(false);
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  // Leaving the page stops a download nobody would see.
  useEffect(() => () => abort.current?.abort(), []);

  if (event.agenda_count === 0) return null;

  const handleDownload = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setProgress(null);
    setRunning(true);
    const timer = setTimeout(() => setSlow(true), SLOW_AFTER_MS);
    try {
      await downloadMeetingBook(event, setProgress, controller.signal);
    } catch (failure) {
      if (!controller.signal.aborted) setError(bookErrorText(failure));
    } finally {
      clearTimeout(timer);
      if (!controller.signal.aborted) {
        setRunning(false);
        setSlow(false);
        setProgress(null);
      }
    }
  };

  return (
    <PageSection
      id="sitzungsmappe"
      title="Sitzungsmappe"
      gap="sm"
      footer={
        // After the stack: the live region is always there (to be announced), but empty takes no room.
        <Box mt={(running && slow) || error ? 'sm' : 0}>
          <div role="status" aria-live="polite">
            {running && slow ? (
              <Group gap="xs" wrap="nowrap">
                <Loader size="sm" aria-hidden />
                <Text size="sm">{progressText(progress)}</Text>
              </Group>
            ) : null}
          </div>
          {error ? (
            <Text size="sm" c="red.8" role="alert">
              {error}
            </Text>
          ) : null}
        </Box>
      }
    >
      <Text size="sm">
        Alle Unterlagen der Tagesordnung, die Sie sehen dürfen, in einer PDF-Datei: mit Deckblatt und
        Inhaltsverzeichnis, zum Lesen unterwegs oder zum Drucken.
      </Text>
      <Group>
        <Button
          leftSection={<IconBook2 size={18} aria-hidden />}
          loading={running}
          onClick={() => void handleDownload()}
        >
          Sitzungsmappe herunterladen
        </Button>
      </Group>
    </PageSection>
  );
}
