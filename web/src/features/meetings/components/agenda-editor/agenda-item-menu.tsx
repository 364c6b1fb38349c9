import { ActionIcon, Menu } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconIndentDecrease,
  IconIndentIncrease,
  IconRowRemove,
} from '@tabler/icons-react';
import { openConfirmDialog } from '../../../../components/confirm-dialog';
import { canIndent, locate, numberLabel, type DraftItem } from '../../agenda-draft';
import { plural } from '../../../../lib/plural';
import { useAgendaEditor } from './agenda-editor-context';

/**
 * Three dots, drawn here: Tabler's IconDots is shared with the explorer, and one more user would
 * split it into a file of its own on the first load of /files (decision 130).
 */
function MoreIcon() {
  return (
    <svg width={20} height={20} viewBox="0 0 24 24" fill="currentColor" aria-hidden focusable={false}>
      <circle cx={5} cy={12} r={1.75} />
      <circle cx={12} cy={12} r={1.75} />
      <circle cx={19} cy={12} r={1.75} />
    </svg>
  );
}

/**
 * "Weitere Aktionen" of an item: up and down (the keyboard's and the touch screen's way besides
 * dragging), sub-item and back, remove. Only what applies is offered.
 */
export function AgendaItemMenu({ item, label }: { item: DraftItem; label: string }) {
  const editor = useAgendaEditor();
  const at = locate(editor.draft, item.key);
  if (!at) return null;
  const above = at.parentKey === null && at.index > 0 ? editor.draft[at.index - 1] : undefined;

  const remove = () => {
    if (item.children.length === 0) {
      editor.remove(item.key);
      return;
    }
    openConfirmDialog({
      title: `${label} entfernen?`,
      message: `Mit ihm werden ${plural(item.children.length, 'Unterpunkt', 'Unterpunkte')} entfernt. Gespeichert ist das erst mit „Speichern“.`,
      confirmLabel: 'Entfernen',
      onConfirm: () => editor.remove(item.key),
    });
  };

  return (
    // In the page, not in a portal: the items stay inside the main landmark, and without the focus
    // placeholder the menu holds menu items only (axe).
    <Menu position="bottom-end" withinPortal={false} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray.8"
          size="lg"
          aria-label={`Weitere Aktionen für ${label}`}
          disabled={editor.busy}
          data-menu-for={item.key}
        >
          <MoreIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {at.index > 0 ? (
          <Menu.Item
            leftSection={<IconArrowUp size={18} aria-hidden />}
            onClick={() => editor.moveBy(item.key, -1)}
          >
            Nach oben
          </Menu.Item>
        ) : null}
        {at.index < at.siblings.length - 1 ? (
          <Menu.Item
            leftSection={<IconArrowDown size={18} aria-hidden />}
            onClick={() => editor.moveBy(item.key, 1)}
          >
            Nach unten
          </Menu.Item>
        ) : null}
        {above && canIndent(editor.draft, item.key) ? (
          <Menu.Item
            leftSection={<IconIndentIncrease size={18} aria-hidden />}
            onClick={() => editor.indent(item.key)}
          >
            Zum Unterpunkt von {numberLabel(editor.numbers.get(above.key) ?? '')} machen
          </Menu.Item>
        ) : null}
        {at.parentKey !== null ? (
          <Menu.Item
            leftSection={<IconIndentDecrease size={18} aria-hidden />}
            onClick={() => editor.outdent(item.key)}
          >
            Zum eigenen Punkt machen
          </Menu.Item>
        ) : null}
        {at.siblings.length > 1 || above || at.parentKey !== null ? <Menu.Divider /> : null}
        <Menu.Item color="red.9" leftSection={<IconRowRemove size={18} aria-hidden />} onClick={remove}>
          Entfernen
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
