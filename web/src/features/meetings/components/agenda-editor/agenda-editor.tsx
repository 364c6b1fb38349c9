import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconDeviceFloppy, IconGavel, IconPlus } from '@tabler/icons-react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type DragEndEvent,
  type Modifier,
} from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { MEETING_MESSAGES, type AgendaItem } from '@gremienportal/contracts/meetings';
import { useUnsavedChanges } from '../../../../components/unsaved-changes';
import { errorMessage, isApiError } from '../../../../lib/api-client';
import * as ops from '../../agenda-draft';
import { fetchCircularAnnouncement, useSaveAgenda } from '../../agenda.api';
import {
  announcements,
  itemLabel,
  sameListCollisions,
  sameListKeyboardCoordinates,
  screenReaderInstructions,
} from './agenda-dnd';
import { AgendaEditorContext, type AgendaEditorApi } from './agenda-editor-context';
import { AgendaItemCard, LIST } from './agenda-item-card';
import { DocumentPicker } from './document-picker';
import { useVisibilityCheck } from './use-visibility-check';

/** Save stays in reach at the bottom of the screen while a long agenda is edited. */
const ACTIONS: CSSProperties = {
  position: 'sticky',
  bottom: 0,
  zIndex: 3,
  background: 'var(--mantine-color-body)',
  borderTop: '1px solid var(--mantine-color-gray-3)',
  paddingBlock: 'var(--mantine-spacing-sm)',
};

/** Items move up and down only. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

interface EditorState {
  draft: ops.Draft;
  errors: ops.DraftErrors;
}

/** After a change of some fields: their messages as the contract now says, the others kept. */
function revalidated(
  state: EditorState,
  next: ops.Draft,
  key: string,
  fields: ops.DraftField[],
): ops.DraftErrors {
  const own = state.errors.items[key];
  if (!own) return state.errors;
  const fresh = ops.validateDraft(next).items[key] ?? {};
  const updated = { ...own };
  for (const field of fields) {
    if (fresh[field]) updated[field] = fresh[field];
    else delete updated[field];
  }
  const items = { ...state.errors.items, [key]: updated };
  if (Object.keys(updated).length === 0) delete items[key];
  return { ...state.errors, items };
}

/** A 422's field messages under the items and fields they name; anything else as one message. */
function saveErrors(draft: ops.Draft, error: unknown): ops.DraftErrors {
  if (isApiError(error) && error.status === 422) {
    const entries = Object.entries(error.errors ?? {}).flatMap(([path, messages]) =>
      messages.map((message): [string, string] => [path, message]),
    );
    const placed = ops.errorsByPath(draft, entries);
    return ops.hasErrors(placed) ? placed : { items: {}, general: [error.message] };
  }
  return { items: {}, general: [errorMessage(error, 'Die Tagesordnung konnte nicht gespeichert werden.')] };
}

interface AgendaEditorProps {
  event: Pick<PortalEvent, 'id' | 'title'>;
  agenda: readonly AgendaItem[];
}

/**
 * The Tagesordnung editor (admins): items and sub-items with title, description, presenter and
 * documents; ordered by dragging the grip, by the grip's keyboard control or with "Nach oben" /
 * "Nach unten"; saved in one request. Nothing typed is lost when the server refuses it, and leaving
 * with unsaved changes asks first.
 */
export function AgendaEditor({ event, agenda }: AgendaEditorProps) {
  const navigate = useNavigate();
  const rootRef = useRef<HTMLDivElement>(null);
  const [initial] = useState(() => ops.draftFromAgenda(agenda));
  const [state, setState] = useState<EditorState>({ draft: initial, errors: ops.NO_ERRORS });
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [focusSelector, setFocusSelector] = useState<string | null>(null);
  const [pickerKey, setPickerKey] = useState<string | null>(null);
  const visibility = useVisibilityCheck(event.id, agenda);
  const save = useSaveAgenda(event.id);
  const { draft, errors } = state;
  const draftRef = useRef(draft);
  draftRef.current = draft;
  const numbers = useMemo(() => ops.numbersOf(draft), [draft]);
  const dirty = useMemo(
    () => JSON.stringify(ops.toBody(draft)) !== JSON.stringify(ops.toBody(initial)),
    [draft, initial],
  );
  const unsaved = useUnsavedChanges(dirty && !save.isSuccess);

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sameListKeyboardCoordinates }),
  );
  const accessibility = useMemo(
    () => ({ announcements: announcements(draftRef), screenReaderInstructions }),
    [],
  );

  useEffect(() => {
    if (!focusSelector) return;
    rootRef.current?.querySelector<HTMLElement>(focusSelector)?.focus();
    setFocusSelector(null);
  }, [focusSelector]);

  const structural = (change: (current: ops.Draft) => ops.Draft) =>
    setState((current) => ({ ...current, draft: change(current.draft) }));

  const onFocused = useCallback(() => setFocusKey(null), []);
  const api: AgendaEditorApi = {
    draft,
    numbers,
    errors,
    visibility: visibility.state,
    busy: save.isPending,
    focusKey,
    onFocused,
    change: (key, patch) =>
      setState((current) => {
        const next = ops.updateItem(current.draft, key, patch);
        return {
          draft: next,
          errors: revalidated(current, next, key, Object.keys(patch) as ops.DraftField[]),
        };
      }),
    remove: (key) => {
      const parentKey = ops.locate(draft, key)?.parentKey ?? null;
      structural((current) => ops.removeItem(current, key));
      setFocusSelector(parentKey ? `[data-add-sub="${parentKey}"]` : '[data-add-item]');
    },
    moveBy: (key, delta) => structural((current) => ops.moveBy(current, key, delta)),
    indent: (key) => {
      structural((current) => ops.indent(current, key));
      setFocusSelector(`[data-menu-for="${key}"]`);
    },
    outdent: (key) => {
      structural((current) => ops.outdent(current, key));
      setFocusSelector(`[data-menu-for="${key}"]`);
    },
    addSubItem: (parentKey) => {
      const item = ops.emptyItem();
      structural((current) => ops.addItem(current, item, parentKey));
      setFocusKey(item.key);
    },
    pickDocuments: setPickerKey,
  };

  const addMainItem = () => {
    const item = ops.emptyItem();
    structural((current) => ops.addItem(current, item));
    setFocusKey(item.key);
  };

  const [announcing, setAnnouncing] = useState(false);
  /** Appends "Bekanntgabe der Umlaufbeschlüsse seit der letzten Sitzung", listed by the server. */
  const addAnnouncement = async () => {
    setAnnouncing(true);
    try {
      const found = await fetchCircularAnnouncement(event.id);
      const item = { ...ops.emptyItem(), title: found.title, description: found.description };
      structural((current) => ops.addItem(current, item));
      setFocusKey(item.key);
      const count = found.resolutions.length;
      notifications.show({
        color: 'green',
        message:
          count === 0
            ? 'Punkt eingefügt: Seit der letzten Sitzung gibt es keine Umlaufbeschlüsse.'
            : `Punkt eingefügt mit ${count === 1 ? 'einem Umlaufbeschluss' : `${count} Umlaufbeschlüssen`}.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        message: errorMessage(error, 'Die Umlaufbeschlüsse konnten nicht geladen werden.'),
      });
    } finally {
      setAnnouncing(false);
    }
  };

  const handleDragEnd = ({ active, over }: DragEndEvent) => {
    if (over) structural((current) => ops.moveOnto(current, String(active.id), String(over.id)));
  };

  const showErrors = (found: ops.DraftErrors) => {
    setState((current) => ({ ...current, errors: found }));
    // The first marked field, or the message when no field is marked.
    setFocusSelector(Object.keys(found.items).length > 0 ? '[aria-invalid="true"]' : '[data-save-error]');
  };

  const handleSave = () => {
    const found = ops.validateDraft(draft);
    if (ops.hasErrors(found)) {
      showErrors(found);
      return;
    }
    setState((current) => ({ ...current, errors: ops.NO_ERRORS }));
    save.mutate(ops.toBody(draft), {
      onSuccess: () => {
        notifications.show({ color: 'green', message: MEETING_MESSAGES.agendaSaved });
        unsaved.allowNext();
        void navigate(`/events/show/${event.id}`);
      },
      onError: (error) => showErrors(saveErrors(draft, error)),
    });
  };

  const picking = pickerKey ? ops.locate(draft, pickerKey) : null;
  const pickingItem = picking?.siblings[picking.index];
  const failed = ops.hasErrors(errors);

  return (
    <AgendaEditorContext.Provider value={api}>
      <Stack gap="md" ref={rootRef}>
        {draft.length === 0 ? (
          <Text c="dimmed">Noch keine Punkte. Mit „Punkt hinzufügen“ beginnt die Tagesordnung.</Text>
        ) : (
          <DndContext
            sensors={sensors}
            collisionDetection={sameListCollisions}
            modifiers={[verticalOnly]}
            accessibility={accessibility}
            onDragEnd={handleDragEnd}
          >
            <SortableContext
              id="tagesordnung"
              items={draft.map((item) => item.key)}
              strategy={verticalListSortingStrategy}
            >
              <ol style={LIST} role="list" aria-label="Punkte der Tagesordnung">
                {draft.map((item) => (
                  <AgendaItemCard key={item.key} item={item} />
                ))}
              </ol>
            </SortableContext>
          </DndContext>
        )}
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={18} aria-hidden />}
            onClick={addMainItem}
            disabled={save.isPending}
            data-add-item
          >
            Punkt hinzufügen
          </Button>
          <Button
            variant="subtle"
            leftSection={<IconGavel size={18} aria-hidden />}
            onClick={() => void addAnnouncement()}
            loading={announcing}
            disabled={save.isPending}
            // The long label wraps on a phone instead of running out of the button.
            styles={{
              root: { height: 'auto', minHeight: 44, paddingBlock: 6 },
              label: { whiteSpace: 'normal', textAlign: 'left' },
            }}
          >
            Bekanntgabe der Umlaufbeschlüsse einfügen
          </Button>
        </Group>
        <VisuallyHidden role="status">{visibility.announcement}</VisuallyHidden>
        <Stack gap="sm" style={ACTIONS}>
          {failed ? (
            <Alert
              color="red"
              variant="light"
              icon={<IconAlertTriangle aria-hidden />}
              title="Die Tagesordnung wurde nicht gespeichert."
              tabIndex={-1}
              data-save-error
            >
              {errors.general.length > 0 ? errors.general.join(' ') : 'Bitte die markierten Angaben prüfen.'}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" component={Link} to={`/events/show/${event.id}`}>
              Abbrechen
            </Button>
            <Button
              leftSection={<IconDeviceFloppy size={18} aria-hidden />}
              loading={save.isPending}
              onClick={handleSave}
            >
              Speichern
            </Button>
          </Group>
        </Stack>
      </Stack>
      <DocumentPicker
        target={pickerKey ? itemLabel(draft, pickerKey) : null}
        initial={pickingItem?.documents ?? []}
        onClose={() => setPickerKey(null)}
        onApply={(documents) => {
          if (pickerKey) api.change(pickerKey, { documents });
          visibility.check(documents.map((document) => document.id));
          setPickerKey(null);
        }}
      />
      {unsaved.dialog}
    </AgendaEditorContext.Provider>
  );
}
