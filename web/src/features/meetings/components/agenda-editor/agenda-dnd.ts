import {
  closestCenter,
  type Active,
  type Announcements,
  type CollisionDetection,
  type KeyboardCoordinateGetter,
  type Over,
  type ScreenReaderInstructions,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { numberLabel, numbersOf, type Draft } from '../../agenda-draft';

/*
 * Drag and drop of agenda items with dnd-kit: a main item moves among the main items, a sub-item
 * among the sub-items of its main item (making an item a sub-item is "Einrücken" in its menu).
 * By pointer on the grip, by keyboard on the same grip (space, arrow keys, space), announced in
 * German.
 */

/** The sortable list an item belongs to: "root" or the key of its main item. */
const listOf = (entry: Pick<Active, 'data'> | null | undefined): unknown =>
  (entry?.data.current as { sortable?: { containerId?: unknown } } | undefined)?.sortable?.containerId;

/** Only the places in the dragged item's own list count as targets. */
export const sameListCollisions: CollisionDetection = (args) =>
  closestCenter({
    ...args,
    droppableContainers: args.droppableContainers.filter(
      (container) => listOf(container) === listOf(args.active),
    ),
  });

/** The arrow keys move to the next place in the same list, never into another one. */
export const sameListKeyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const { droppableContainers } = args.context;
  const list = listOf(args.context.active);
  const sameList = {
    getEnabled: () => droppableContainers.getEnabled().filter((container) => listOf(container) === list),
    get: (id: Parameters<typeof droppableContainers.get>[0]) => droppableContainers.get(id),
  } as unknown as typeof droppableContainers;
  return sortableKeyboardCoordinates(event, {
    ...args,
    context: { ...args.context, droppableContainers: sameList },
  });
};

export const screenReaderInstructions: ScreenReaderInstructions = {
  draggable:
    'Zum Verschieben die Leertaste drücken. Mit den Pfeiltasten nach oben oder unten bewegen, ' +
    'mit der Leertaste ablegen oder mit Escape abbrechen.',
};

/** "Punkt 2 „Bericht des Vorstands“", "Unterpunkt 2.1 „Aussprache“". */
export function itemLabel(draft: Draft, key: string): string {
  const number = numbersOf(draft).get(key) ?? '';
  const item = draft.flatMap((main) => [main, ...main.children]).find((entry) => entry.key === key);
  const title = item?.title.trim();
  return title ? `${numberLabel(number)} „${title}“` : numberLabel(number);
}

/** Position and length of the list at `over`, counted from 1. */
function placeOf(over: Over | Active): { position: number; count: number } | null {
  const sortable = (over.data.current as { sortable?: { index: number; items: unknown[] } } | undefined)
    ?.sortable;
  return sortable ? { position: sortable.index + 1, count: sortable.items.length } : null;
}

/** German announcements; `draftRef` is read at announcement time (the draft as it is then). */
export function announcements(draftRef: { current: Draft }): Announcements {
  const label = (entry: Active | Over) => itemLabel(draftRef.current, String(entry.id));
  const at = (entry: Active | Over) => {
    const place = placeOf(entry);
    return place ? `Position ${place.position} von ${place.count}` : '';
  };
  // The first "over" is the item's own place: saying so would cut off "aufgenommen".
  let lastOver: unknown = null;
  return {
    onDragStart: ({ active }) => {
      lastOver = active.id;
      return `${label(active)} aufgenommen, ${at(active)}.`;
    },
    onDragOver: ({ active, over }) => {
      if ((over?.id ?? null) === lastOver) return undefined;
      lastOver = over?.id ?? null;
      return over
        ? `${label(active)} ist jetzt auf ${at(over)}.`
        : `${label(active)} ist außerhalb der Liste.`;
    },
    onDragEnd: ({ active, over }) =>
      over
        ? `${label(active)} auf ${at(over)} abgelegt.`
        : `${label(active)} abgelegt, Reihenfolge unverändert.`,
    onDragCancel: ({ active }) => `Verschieben abgebrochen. ${label(active)} bleibt, wo er war.`,
  };
}
