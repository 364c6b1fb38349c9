import { Text } from '@mantine/core';
import type { StoredFile } from '../files.api';

/** Whether the text inside a document can be searched (decision 129), from GET /files/{id}. */
export type TextState = NonNullable<StoredFile['text_state']>;

/**
 * For everyone, when the search cannot read the document (no text layer, damaged, too large):
 * it is found by its title only.
 */
export function NotSearchableNote({ state }: { state: TextState | undefined }) {
  if (state !== 'empty' && state !== 'failed') return null;
  return (
    <Text size="sm" c="dimmed">
      <b>Inhalt nicht durchsuchbar:</b> Die Datei wird nur über ihren Titel gefunden.
    </Text>
  );
}
