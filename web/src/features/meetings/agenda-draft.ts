import type { AgendaItem, PutAgendaInput } from '@gremienportal/contracts/meetings';
import { putAgendaBodySchema } from '@gremienportal/contracts/meetings';
import { agendaBranches } from './agenda.rules';

/*
 * The agenda as the editor holds it until "Speichern": main items with their sub-items (two
 * levels), each with a key that stays while it moves, and the documents picked for it. Pure
 * functions, so the rules are tested apart from the screen.
 */

export interface DraftDocument {
  id: number;
  title: string;
  format: string;
  /** Unknown for a document picked from the search hits. */
  size_bytes: number | null;
}

export interface DraftItem {
  key: string;
  title: string;
  description: string;
  presenter: string;
  documents: DraftDocument[];
  /** Sub-items; always empty for a sub-item. */
  children: DraftItem[];
}

export type Draft = DraftItem[];
export type DraftField = 'title' | 'description' | 'presenter' | 'documents';
export type DraftPatch = Partial<Pick<DraftItem, 'title' | 'description' | 'presenter' | 'documents'>>;

/** Messages per item key and field, and those that belong to no field (too many items). */
export interface DraftErrors {
  items: Record<string, Partial<Record<DraftField, string>>>;
  general: string[];
}

export const NO_ERRORS: DraftErrors = { items: {}, general: [] };

let counter = 0;
/** A key for an item that is not saved yet. */
const newKey = () => `neu-${(counter += 1)}`;

export const emptyItem = (): DraftItem => ({
  key: newKey(),
  title: '',
  description: '',
  presenter: '',
  documents: [],
  children: [],
});

function fromAgendaItem(item: AgendaItem, children: DraftItem[]): DraftItem {
  return {
    key: `punkt-${item.id}`,
    title: item.title,
    description: item.description,
    presenter: item.presenter,
    documents: item.files.map((file) => ({
      id: file.id,
      title: file.title,
      format: file.format,
      size_bytes: file.size_bytes,
    })),
    children,
  };
}

/** The saved agenda (reading order from the server) as a draft. */
export const draftFromAgenda = (items: readonly AgendaItem[]): Draft =>
  agendaBranches(items).map(({ item, children }) =>
    fromAgendaItem(
      item,
      children.map((child) => fromAgendaItem(child, [])),
    ),
  );

/** Where an item is: its parent's key (null for a main item), its list and its index there. */
export interface Location {
  parentKey: string | null;
  siblings: DraftItem[];
  index: number;
}

export function locate(draft: Draft, key: string): Location | null {
  const index = draft.findIndex((item) => item.key === key);
  if (index >= 0) return { parentKey: null, siblings: draft, index };
  for (const parent of draft) {
    const childIndex = parent.children.findIndex((child) => child.key === key);
    if (childIndex >= 0) return { parentKey: parent.key, siblings: parent.children, index: childIndex };
  }
  return null;
}

/** Replaces the list that holds `key` (the main list or a main item's sub-items). */
function withSiblings(draft: Draft, parentKey: string | null, next: DraftItem[]): Draft {
  if (parentKey === null) return next;
  return draft.map((item) => (item.key === parentKey ? { ...item, children: next } : item));
}

export function updateItem(draft: Draft, key: string, patch: DraftPatch): Draft {
  const at = locate(draft, key);
  if (!at) return draft;
  const next = at.siblings.map((item) => (item.key === key ? { ...item, ...patch } : item));
  return withSiblings(draft, at.parentKey, next);
}

/** Appends a main item, or a sub-item to `parentKey`. */
export function addItem(draft: Draft, item: DraftItem, parentKey: string | null = null): Draft {
  if (parentKey === null) return [...draft, item];
  return draft.map((main) =>
    main.key === parentKey ? { ...main, children: [...main.children, item] } : main,
  );
}

export function removeItem(draft: Draft, key: string): Draft {
  const at = locate(draft, key);
  if (!at) return draft;
  return withSiblings(
    draft,
    at.parentKey,
    at.siblings.filter((item) => item.key !== key),
  );
}

function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

/** One place up (-1) or down (+1) among its siblings; nothing beyond the ends. */
export function moveBy(draft: Draft, key: string, delta: -1 | 1): Draft {
  const at = locate(draft, key);
  if (!at) return draft;
  const to = at.index + delta;
  if (to < 0 || to >= at.siblings.length) return draft;
  return withSiblings(draft, at.parentKey, move(at.siblings, at.index, to));
}

/** Drag and drop: `key` takes the place of `overKey` when both are in the same list. */
export function moveOnto(draft: Draft, key: string, overKey: string): Draft {
  const from = locate(draft, key);
  const to = locate(draft, overKey);
  if (!from || !to || from.parentKey !== to.parentKey || from.index === to.index) return draft;
  return withSiblings(draft, from.parentKey, move(from.siblings, from.index, to.index));
}

/** A main item without sub-items becomes the last sub-item of the main item above it. */
export function canIndent(draft: Draft, key: string): boolean {
  const at = locate(draft, key);
  return at !== null && at.parentKey === null && at.index > 0 && at.siblings[at.index]!.children.length === 0;
}

export function indent(draft: Draft, key: string): Draft {
  if (!canIndent(draft, key)) return draft;
  const at = locate(draft, key)!;
  const item = draft[at.index]!;
  const above = draft[at.index - 1]!;
  return draft
    .filter((main) => main.key !== key)
    .map((main) => (main.key === above.key ? { ...main, children: [...main.children, item] } : main));
}

/** A sub-item becomes a main item right after its main item. */
export function outdent(draft: Draft, key: string): Draft {
  const at = locate(draft, key);
  if (!at || at.parentKey === null) return draft;
  const item = at.siblings[at.index]!;
  const parentIndex = draft.findIndex((main) => main.key === at.parentKey);
  const next = removeItem(draft, key);
  return [...next.slice(0, parentIndex + 1), item, ...next.slice(parentIndex + 1)];
}

/** "Punkt 2", "Unterpunkt 2.1". */
export const numberLabel = (number: string) => `${number.includes('.') ? 'Unterpunkt' : 'Punkt'} ${number}`;

/** "1", "2", "2.1" per key, as the server numbers the saved agenda. */
export function numbersOf(draft: Draft): Map<string, string> {
  const numbers = new Map<string, string>();
  draft.forEach((item, index) => {
    numbers.set(item.key, String(index + 1));
    item.children.forEach((child, childIndex) => numbers.set(child.key, `${index + 1}.${childIndex + 1}`));
  });
  return numbers;
}

const fieldsOf = (item: DraftItem) => ({
  title: item.title,
  description: item.description,
  presenter: item.presenter,
  file_ids: item.documents.map((document) => document.id),
});

/** The body of `PUT /events/{id}/agenda`: the whole ordered list. */
export const toBody = (draft: Draft): PutAgendaInput => ({
  items: draft.map((item) => ({
    ...fieldsOf(item),
    children: item.children.map(fieldsOf),
  })),
});

const FIELD_OF_KEY: Record<string, DraftField> = {
  title: 'title',
  description: 'description',
  presenter: 'presenter',
  file_ids: 'documents',
};

/**
 * Puts messages with paths of the body (`items.1.children.0.title`, as the contract's issues and
 * the server's 422 name them) under the item and field they belong to; the rest is general.
 */
export function errorsByPath(draft: Draft, entries: Iterable<[string, string]>): DraftErrors {
  const errors: DraftErrors = { items: {}, general: [] };
  for (const [path, message] of entries) {
    const parts = path.split('.');
    const main = parts[0] === 'items' ? draft[Number(parts[1])] : undefined;
    const sub = parts[2] === 'children' ? main?.children[Number(parts[3])] : undefined;
    const item = parts[2] === 'children' ? sub : main;
    const field = FIELD_OF_KEY[parts[parts[2] === 'children' ? 4 : 2] ?? ''];
    const expectedLength = parts[2] === 'children' ? 5 : 3;
    if (item && field && parts.length === expectedLength) {
      (errors.items[item.key] ??= {})[field] ??= message;
    } else if (!errors.general.includes(message)) {
      errors.general.push(message);
    }
  }
  return errors;
}

/** The contract's rules and German messages, before anything is sent. */
export function validateDraft(draft: Draft): DraftErrors {
  const result = putAgendaBodySchema.safeParse(toBody(draft));
  if (result.success) return NO_ERRORS;
  return errorsByPath(
    draft,
    result.error.issues.map((issue): [string, string] => [issue.path.join('.'), issue.message]),
  );
}

export const hasErrors = (errors: DraftErrors) =>
  errors.general.length > 0 || Object.keys(errors.items).length > 0;

/** Every document id of the draft, once. */
export const documentIdsOf = (draft: Draft): number[] => [
  ...new Set(
    draft.flatMap((item) => [item, ...item.children]).flatMap((item) => item.documents.map((d) => d.id)),
  ),
];
