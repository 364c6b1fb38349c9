import { useEffect, useRef, useState } from 'react';
import { AGENDA_LIMITS, type AgendaItem } from '@gremienportal/contracts/meetings';
import { checkAgendaFiles } from '../../agenda.api';
import { unseenByText } from '../../agenda.rules';
import type { Visibility } from './agenda-editor-context';

/** What the saved agenda already says (admins get `unseen_by` with every document). */
function knownFrom(agenda: readonly AgendaItem[]): Record<number, Visibility> {
  const known: Record<number, Visibility> = {};
  for (const file of agenda.flatMap((item) => item.files)) {
    if (file.unseen_by) known[file.id] = { state: 'known', unseenBy: file.unseen_by };
  }
  return known;
}

/**
 * Which of the event's roles cannot see each linked document: known from the saved agenda, asked
 * of the server (`POST /events/{id}/agenda/check`) for documents picked since. A warning is also
 * read out, as it appears after the picker closed.
 */
export function useVisibilityCheck(eventId: number, agenda: readonly AgendaItem[]) {
  const [state, setState] = useState<Record<number, Visibility>>(() => knownFrom(agenda));
  const [announcement, setAnnouncement] = useState('');
  const stateRef = useRef(state);
  stateRef.current = state;
  const abort = useRef(new AbortController());

  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    return () => controller.abort();
  }, []);

  const check = (ids: readonly number[]) => {
    const unknown = [...new Set(ids)].filter((id) => {
      const entry = stateRef.current[id];
      return !entry || entry.state === 'failed';
    });
    if (unknown.length === 0) return;
    setState((current) => ({
      ...current,
      ...Object.fromEntries(unknown.map((id) => [id, { state: 'checking' } as Visibility])),
    }));
    for (let start = 0; start < unknown.length; start += AGENDA_LIMITS.filesPerItem) {
      const part = unknown.slice(start, start + AGENDA_LIMITS.filesPerItem);
      checkAgendaFiles(eventId, part, abort.current.signal).then(
        (results) => {
          setState((current) => ({
            ...current,
            ...Object.fromEntries(
              results.map((result) => [
                result.file_id,
                { state: 'known', unseenBy: result.unseen_by } as Visibility,
              ]),
            ),
          }));
          const warnings = results
            .filter((result) => result.unseen_by.length > 0)
            .map((result) => `„${result.title}“: ${unseenByText(result.unseen_by)}.`);
          if (warnings.length > 0) setAnnouncement(`Hinweis: ${warnings.join(' ')}`);
        },
        () => {
          if (abort.current.signal.aborted) return;
          setState((current) => ({
            ...current,
            ...Object.fromEntries(part.map((id) => [id, { state: 'failed' } as Visibility])),
          }));
        },
      );
    }
  };

  return { state, announcement, check };
}
