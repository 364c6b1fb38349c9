import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Input,
  Paper,
  Progress,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCircleCheck, IconX } from '@tabler/icons-react';
import { UPLOAD_BATCH_MESSAGES } from '@gremienportal/contracts/file-messages';
import { formatSizeMb } from '../../../lib/format';
import type { BatchRow } from './use-batch-upload';

/** "3 Dokumente hochladen", after failures "1 fehlgeschlagenes Dokument erneut hochladen". */
export function batchSubmitLabel(rows: readonly BatchRow[]): string {
  const failed = rows.filter((row) => row.status === 'failed').length;
  return failed > 0 ? UPLOAD_BATCH_MESSAGES.retry(failed) : UPLOAD_BATCH_MESSAGES.submit(rows.length);
}

/** What a row says about its upload; the progress in words beside the bar. */
function RowStatus({ row }: { row: BatchRow }) {
  if (row.status === 'done') {
    return (
      <Group gap={4} c="teal.8">
        <IconCircleCheck size={16} aria-hidden />
        <Text size="sm">{UPLOAD_BATCH_MESSAGES.succeeded}</Text>
      </Group>
    );
  }
  if (row.status === 'failed') {
    return (
      <Text size="sm" c="red.8">
        {row.error}
      </Text>
    );
  }
  if (row.status === 'uploading') {
    const percent = row.progress?.percent;
    return (
      <Stack gap={2}>
        <Progress
          value={percent ?? 100}
          animated={percent === undefined}
          size="sm"
          aria-label={`Fortschritt von ${row.file.name}`}
        />
        <Text size="xs" c="dimmed">
          {percent === undefined ? UPLOAD_BATCH_MESSAGES.uploading : `Wird hochgeladen … ${percent} %`}
        </Text>
      </Stack>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      {UPLOAD_BATCH_MESSAGES.waiting}
    </Text>
  );
}

/**
 * "Dokumente": the chosen files, each with its title (from the file name, editable until it is up),
 * its size and, once saving began, its own progress and result (decision 182).
 */
export function BatchFileList({
  rows,
  busy,
  onTitle,
  onRemove,
}: {
  rows: readonly BatchRow[];
  busy: boolean;
  onTitle: (key: string, title: string) => void;
  onRemove: (key: string) => void;
}) {
  return (
    <Input.Wrapper label={UPLOAD_BATCH_MESSAGES.listLabel} labelElement="div" required>
      <Stack gap="xs" mt={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((row) => {
          const locked = busy || row.status === 'done' || row.status === 'uploading';
          return (
            <Paper component="li" key={row.key} withBorder radius="md" p="xs">
              <Group align="flex-start" gap="sm" wrap="wrap">
                <TextInput
                  style={{ flex: '1 1 220px', minWidth: 0 }}
                  label={UPLOAD_BATCH_MESSAGES.titleOf(row.file.name)}
                  required
                  value={row.title}
                  error={row.titleError}
                  disabled={locked}
                  onChange={(event) => onTitle(row.key, event.currentTarget.value)}
                />
                <Stack gap={4} style={{ flex: '1 1 180px', minWidth: 0 }} pt={4}>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {row.file.name} ({formatSizeMb(row.file.size, { unit: 'bytes' })})
                  </Text>
                  <div aria-live="polite">
                    <RowStatus row={row} />
                  </div>
                </Stack>
                {row.status === 'done' ? null : (
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    mt={4}
                    onClick={() => onRemove(row.key)}
                    aria-label={UPLOAD_BATCH_MESSAGES.remove(row.file.name)}
                    disabled={locked}
                  >
                    <IconX size={16} aria-hidden />
                  </ActionIcon>
                )}
              </Group>
            </Paper>
          );
        })}
      </Stack>
    </Input.Wrapper>
  );
}

/**
 * Under the list once saving ended: how many failed, and the way to complete the batch without
 * them; after the completion, how many were uploaded.
 */
export function BatchSummary({
  rows,
  completed,
  onFinish,
}: {
  rows: readonly BatchRow[];
  completed: boolean;
  onFinish: () => void;
}) {
  const done = rows.filter((row) => row.status === 'done').length;
  const failed = rows.filter((row) => row.status === 'failed').length;
  if (completed) {
    return (
      <Alert color="teal" role="status">
        {UPLOAD_BATCH_MESSAGES.allSucceeded(done)}
      </Alert>
    );
  }
  if (failed === 0) return null;
  return (
    <Alert color="red" title={UPLOAD_BATCH_MESSAGES.someFailed(failed, rows.length)}>
      {done > 0 ? (
        <Button variant="default" size="xs" onClick={onFinish}>
          {UPLOAD_BATCH_MESSAGES.finishWithout}
        </Button>
      ) : null}
    </Alert>
  );
}
