import type { AgendaItem } from '@gremienportal/contracts/meetings';
import { listOfNames } from '../../lib/plural';

/** A main item of the agenda with its sub-items, as the event page nests them. */
export interface AgendaBranch {
  item: AgendaItem;
  children: AgendaItem[];
}

/** The agenda in reading order (1, 2, 2.1, 3) as main items with their sub-items. */
export function agendaBranches(items: readonly AgendaItem[]): AgendaBranch[] {
  const branches: AgendaBranch[] = [];
  const byId = new Map<number, AgendaBranch>();
  for (const item of items) {
    const parent = item.parent_id === null ? undefined : byId.get(item.parent_id);
    if (parent) {
      parent.children.push(item);
    } else {
      const branch = { item, children: [] };
      byId.set(item.id, branch);
      branches.push(branch);
    }
  }
  return branches;
}

/** Every document of the agenda, counted once per item that lists it. */
export const documentCount = (items: readonly AgendaItem[]) =>
  items.reduce((sum, item) => sum + item.files.length, 0);

/** "Für die Rolle Vertreter nicht sichtbar", "Für die Rollen Aufsichtsrat und Vertreter nicht sichtbar". */
export function unseenByText(roles: readonly string[]): string {
  return `Für die ${roles.length === 1 ? 'Rolle' : 'Rollen'} ${listOfNames(roles)} nicht sichtbar`;
}
