import { useId } from 'react';
import { ActionIcon, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconFilePlus, IconUnlink } from '@tabler/icons-react';
import { DocumentSummary } from '../../../../components/document-summary';
import { fileNameOf } from '../../../../lib/document-content';
import { numberLabel, type DraftDocument, type DraftItem } from '../../agenda-draft';
import { unseenByText } from '../../agenda.rules';
import { useAgendaEditor, type Visibility } from './agenda-editor-context';

/** Under a document: who of the event's roles cannot see it, or that this is being checked. */
function VisibilityNote({ visibility }: { visibility: Visibility | undefined }) {
  if (!visibility) return null;
  if (visibility.state === 'checking') {
    return (
      <Group gap={6} wrap="nowrap" mt={2}>
        <Loader size={14} aria-hidden />
        <Text size="sm" c="dimmed">
          Sichtbarkeit wird geprüft …
        </Text>
      </Group>
    );
  }
  if (visibility.state === 'failed') {
    return (
      <Text size="sm" c="dimmed" mt={2}>
        Die Sichtbarkeit konnte nicht geprüft werden.
      </Text>
    );
  }
  if (visibility.unseenBy.length === 0) return null;
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" mt={2}>
      <IconAlertTriangle
        size={16}
        aria-hidden
        style={{ flexShrink: 0, marginTop: 3 }}
        color="var(--mantine-color-orange-9)"
      />
      {/* The text in the body colour (orange text misses 4.5:1), the icon marks it. */}
      <Text size="sm" fw={500}>
        {unseenByText(visibility.unseenBy)}
      </Text>
    </Group>
  );
}

/** The documents of one item in the editor: remove each, choose more in the picker. */
export function AgendaItemDocuments({ item }: { item: DraftItem }) {
  const editor = useAgendaEditor();
  const errorId = useId();
  const error = editor.errors.items[item.key]?.documents;
  const label = numberLabel(editor.numbers.get(item.key) ?? '');

  const remove = (document: DraftDocument) =>
    editor.change(item.key, { documents: item.documents.filter((entry) => entry.id !== document.id) });

  return (
    <Stack
      gap={6}
      role="group"
      aria-label={`Dokumente zu ${label}`}
      aria-describedby={error ? errorId : undefined}
    >
      <Text fw={500} aria-hidden>
        Dokumente
      </Text>
      {item.documents.length === 0 ? (
        <Text size="sm" c="dimmed">
          Noch keine Dokumente verknüpft.
        </Text>
      ) : (
        <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
          {item.documents.map((document) => (
            <Group
              component="li"
              key={document.id}
              gap="xs"
              wrap="nowrap"
              align="flex-start"
              py={6}
              style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
            >
              <DocumentSummary
                title={document.title}
                format={document.format}
                sizeBytes={document.size_bytes}
              >
                <VisibilityNote visibility={editor.visibility[document.id]} />
              </DocumentSummary>
              <ActionIcon
                variant="subtle"
                color="gray.8"
                size="lg"
                aria-label={`„${fileNameOf(document)}“ aus ${label} entfernen`}
                disabled={editor.busy}
                onClick={() => remove(document)}
              >
                <IconUnlink size={18} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
      {error ? (
        <Text id={errorId} size="sm" c="red.8">
          {error}
        </Text>
      ) : null}
      <Group>
        <Button
          variant="light"
          size="sm"
          leftSection={<IconFilePlus size={18} aria-hidden />}
          disabled={editor.busy}
          onClick={() => editor.pickDocuments(item.key)}
        >
          Dokumente auswählen
        </Button>
      </Group>
    </Stack>
  );
}
