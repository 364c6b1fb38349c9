import { factChanges } from '@gremienportal/contracts/meeting-notices';
import type { PublishedAgendaState } from '../events/event-change-notice.ts';
import { factsOf } from '../events/event-change-notice.ts';
import type { EventRecord } from '../events/events.service.ts';
import type { ReadItem } from './agenda.service.ts';

/*
 * What "Tagesordnung veröffentlichen" tells (decision 181), as plain data and words: the state a
 * publication records, and what changed since for one member, as far as they may see the papers.
 */

/** A document whose visibility decides whether a member is told about it. */
export interface SeenDocument {
  id: number;
  folder_id: number;
  roles: readonly { id: number }[];
}

/** The state to record now: the event's facts, its items and every linked document. */
export function currentState(event: EventRecord, items: readonly ReadItem[]): PublishedAgendaState {
  return {
    facts: factsOf(event),
    items: items.map((item) => ({ number: item.number, title: item.title })),
    documents: items.flatMap((item) =>
      item.files.map((file) => ({
        id: file.id,
        title: file.title,
        content: file.storage_key,
        item: item.number,
      })),
    ),
  };
}

/** The agenda as one member reads it in the mail: numbers, titles and the documents they see. */
export function agendaLines(items: readonly ReadItem[], canSee: (file: SeenDocument) => boolean): string[] {
  return items.map((item) => {
    const titles = item.files.filter(canSee).map((file) => `„${file.title}“`);
    const prefix = `TOP ${item.number} ${item.title}`;
    return titles.length === 0 ? prefix : `${prefix} – ${titles.join(', ')}`;
  });
}

/** The items that came, went or moved, matched by title (the agenda is saved as a whole). */
function itemChanges(before: PublishedAgendaState['items'], after: PublishedAgendaState['items']): string[] {
  const was = new Map(before.map((item) => [item.title, item.number]));
  const now = new Map(after.map((item) => [item.title, item.number]));
  const lines: string[] = [];
  for (const item of after) {
    const old = was.get(item.title);
    if (old === undefined) lines.push(`Neu auf der Tagesordnung: TOP ${item.number} ${item.title}`);
    else if (old !== item.number) lines.push(`TOP ${old} ${item.title} ist jetzt TOP ${item.number}`);
  }
  for (const item of before) {
    if (!now.has(item.title)) lines.push(`Nicht mehr auf der Tagesordnung: TOP ${item.number} ${item.title}`);
  }
  return lines;
}

/**
 * What changed since `before` for one member: the facts and items (which everyone invited reads),
 * and the documents `canSee` lets them see now. `gone` are the live documents that were linked then
 * and no longer are; a document that went to the Papierkorb is not named.
 */
export function changesFor(
  before: PublishedAgendaState,
  after: PublishedAgendaState,
  documents: { current: readonly SeenDocument[]; gone: readonly SeenDocument[] },
  canSee: (file: SeenDocument) => boolean,
): string[] {
  const visible = new Set([...documents.current, ...documents.gone].filter(canSee).map((file) => file.id));
  const old = new Map(before.documents.map((doc) => [doc.id, doc]));
  const next = new Set(after.documents.map((doc) => doc.id));
  const lines = [...factChanges(before.facts, after.facts), ...itemChanges(before.items, after.items)];
  for (const doc of after.documents) {
    if (!visible.has(doc.id)) continue;
    const previous = old.get(doc.id);
    if (!previous) lines.push(`Neues Dokument zu TOP ${doc.item}: „${doc.title}“`);
    else if (previous.content !== doc.content) lines.push(`Neue Fassung zu TOP ${doc.item}: „${doc.title}“`);
  }
  for (const doc of before.documents) {
    if (!next.has(doc.id) && visible.has(doc.id)) lines.push(`Nicht mehr zu TOP ${doc.item}: „${doc.title}“`);
  }
  return lines;
}
