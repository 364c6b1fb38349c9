import { Progress, Stack, Text } from '@mantine/core';
import type { UploadProgress } from '../../../lib/api-client';

/** The upload's progress bar; without a known total it runs as an animated bar. */
export function UploadProgressBar({ progress }: { progress: UploadProgress }) {
  const known = progress.percent !== undefined;
  return (
    <Stack gap={4}>
      <Progress
        value={known ? progress.percent! : 100}
        size="md"
        animated={!known}
        aria-label="Fortschritt des Hochladens"
      />
      <Text size="sm" c="dimmed" aria-live="polite">
        {known ? `Wird hochgeladen … ${progress.percent} %` : 'Wird hochgeladen …'}
      </Text>
    </Stack>
  );
}
