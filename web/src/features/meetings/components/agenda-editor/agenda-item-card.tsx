import { useEffect, useId, useRef, type CSSProperties } from 'react';
import { ActionIcon, Button, Group, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconGripVertical, IconPlus } from '@tabler/icons-react';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { numberLabel, type DraftItem } from '../../agenda-draft';
import { itemLabel } from './agenda-dnd';
import { useAgendaEditor } from './agenda-editor-context';
import { AgendaItemDocuments } from './agenda-item-documents';
import { AgendaItemMenu } from './agenda-item-menu';

/** The editor's lists: no bullets, the cards apart. */
export const LIST: CSSProperties = {
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'flex',
  flexDirection: 'column',
  gap: 'var(--mantine-spacing-sm)',
};

/** Sub-items stand in from their main item, with a line that ties them to it. */
const SUB_ITEMS: CSSProperties = { borderInlineStart: '2px solid var(--mantine-color-gray-3)' };

/** The sub-items of a main item, sortable among themselves, and "Unterpunkt hinzufügen". */
function SubItems({ item }: { item: DraftItem }) {
  const editor = useAgendaEditor();
  return (
    <Stack gap="xs" ms={{ base: 0, sm: 'md' }} ps="sm" style={SUB_ITEMS}>
      {item.children.length > 0 ? (
        <SortableContext
          id={item.key}
          items={item.children.map((child) => child.key)}
          strategy={verticalListSortingStrategy}
        >
          <ol
            style={LIST}
            role="list"
            aria-label={`Unterpunkte von ${numberLabel(editor.numbers.get(item.key) ?? '')}`}
          >
            {item.children.map((child) => (
              <AgendaItemCard key={child.key} item={child} />
            ))}
          </ol>
        </SortableContext>
      ) : null}
      <Group>
        <Button
          variant="subtle"
          size="sm"
          leftSection={<IconPlus size={18} aria-hidden />}
          disabled={editor.busy}
          onClick={() => editor.addSubItem(item.key)}
          data-add-sub={item.key}
        >
          Unterpunkt hinzufügen
        </Button>
      </Group>
    </Stack>
  );
}

/** One item of the agenda in the editor: grip, number, menu, its fields, documents and sub-items. */
export function AgendaItemCard({ item }: { item: DraftItem }) {
  const editor = useAgendaEditor();
  const headerId = useId();
  const titleRef = useRef<HTMLInputElement>(null);
  const number = editor.numbers.get(item.key) ?? '';
  const sub = number.includes('.');
  const label = itemLabel(editor.draft, item.key);
  const errors = editor.errors.items[item.key] ?? {};
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({
      id: item.key,
      disabled: editor.busy,
      attributes: { roleDescription: sub ? 'verschiebbarer Unterpunkt' : 'verschiebbarer Punkt' },
    });
  const { focusKey, onFocused } = editor;

  useEffect(() => {
    if (focusKey !== item.key) return;
    titleRef.current?.focus();
    onFocused();
  }, [focusKey, item.key, onFocused]);

  return (
    <li
      ref={setNodeRef}
      data-dragging={isDragging || undefined}
      style={{
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        transform: CSS.Translate.toString(transform),
        transition,
      }}
    >
      <Paper
        withBorder
        radius="md"
        p={{ base: 'xs', sm: 'md' }}
        role="group"
        aria-labelledby={headerId}
        shadow={isDragging ? 'lg' : undefined}
        style={isDragging ? { borderColor: 'var(--mantine-color-brand-6)' } : undefined}
      >
        <Stack gap="sm">
          <Group gap={4} wrap="nowrap" align="center">
            <ActionIcon
              ref={setActivatorNodeRef}
              variant="subtle"
              color="gray.8"
              size="lg"
              // The grip takes the pointer and the touch; the page does not scroll from it.
              style={{ cursor: 'grab', touchAction: 'none' }}
              {...attributes}
              {...listeners}
              aria-label={`${label} verschieben`}
            >
              <IconGripVertical size={20} aria-hidden />
            </ActionIcon>
            <Text id={headerId} fw={650} flex={1} miw={0} style={{ overflowWrap: 'anywhere' }}>
              <Text span inherit c="brand.9">
                {number}
              </Text>{' '}
              {item.title.trim() || (sub ? 'Neuer Unterpunkt' : 'Neuer Punkt')}
            </Text>
            <AgendaItemMenu item={item} label={label} />
          </Group>
          {/* Title and presenter side by side where there is room; only the title is required. */}
          <Group gap="sm" align="flex-start" wrap="wrap">
            <TextInput
              ref={titleRef}
              label="Titel"
              withAsterisk
              aria-required
              value={item.title}
              error={errors.title}
              disabled={editor.busy}
              onChange={(event) => editor.change(item.key, { title: event.currentTarget.value })}
              style={{ flex: '2 1 18rem' }}
            />
            <TextInput
              style={{ flex: '1 1 12rem' }}
              label="Vortragende Person"
              value={item.presenter}
              error={errors.presenter}
              disabled={editor.busy}
              onChange={(event) => editor.change(item.key, { presenter: event.currentTarget.value })}
            />
          </Group>
          <Textarea
            label="Beschreibung"
            autosize
            minRows={2}
            maxRows={8}
            value={item.description}
            error={errors.description}
            disabled={editor.busy}
            onChange={(event) => editor.change(item.key, { description: event.currentTarget.value })}
          />
          <AgendaItemDocuments item={item} />
          {sub ? null : <SubItems item={item} />}
        </Stack>
      </Paper>
    </li>
  );
}
