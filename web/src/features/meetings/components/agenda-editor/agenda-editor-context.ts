import { createContext, useContext } from 'react';
import type { Draft, DraftErrors, DraftPatch } from '../../agenda-draft';

/** Whether the event's roles can see a document: being checked, known, or the check failed. */
export type Visibility = { state: 'checking' } | { state: 'known'; unseenBy: string[] } | { state: 'failed' };

/** What the editor's items change and read, without handing it down through every level. */
export interface AgendaEditorApi {
  draft: Draft;
  numbers: Map<string, string>;
  errors: DraftErrors;
  visibility: Record<number, Visibility>;
  /** While saving: nothing can be changed. */
  busy: boolean;
  /** The item whose title field takes the focus once (a new item). */
  focusKey: string | null;
  onFocused: () => void;
  change: (key: string, patch: DraftPatch) => void;
  remove: (key: string) => void;
  moveBy: (key: string, delta: -1 | 1) => void;
  indent: (key: string) => void;
  outdent: (key: string) => void;
  addSubItem: (parentKey: string) => void;
  pickDocuments: (key: string) => void;
}

export const AgendaEditorContext = createContext<AgendaEditorApi | null>(null);

export function useAgendaEditor(): AgendaEditorApi {
  const api = useContext(AgendaEditorContext);
  if (!api) throw new Error('useAgendaEditor nur innerhalb des Tagesordnungs-Editors');
  return api;
}
