import { z } from 'zod';
import { dataOf } from './common.ts';
import { wallClockInBerlin } from './events.ts';

/*
 * What the office tells a meeting's members (decision 181): "Tagesordnung veröffentlichen" mails
 * the agenda, a later call mails what changed since; a changed time, place or paper of an event
 * can be mailed with its update ("Mitglieder benachrichtigen").
 */

export const NOTICE_MESSAGES = {
  published: (count: number) =>
    count === 1 ? 'Tagesordnung an 1 Person gesendet' : `Tagesordnung an ${count} Personen gesendet`,
  changesSent: (count: number) =>
    count === 1 ? 'Änderungen an 1 Person gesendet' : `Änderungen an ${count} Personen gesendet`,
  nothingChanged:
    'Seit der letzten Veröffentlichung haben sich Tagesordnung, Dokumente, Zeit und Ort nicht geändert. Es wurde nichts gesendet.',
  emptyAgenda: 'Die Tagesordnung hat noch keine Punkte. Bitte legen Sie zuerst die Tagesordnung an.',
  nobodyInvited:
    'Keine Person mit einer Rolle dieser Sitzung hat ein aktives Konto. Es wurde nichts gesendet.',
} as const;

/** `GET /events/{id}/agenda/publish`: what publishing would send now (the confirmation's summary). */
export const agendaPublicationSchema = z.object({
  /** When the agenda was last mailed; null while it never was. */
  published_at: z.string().nullable(),
  /** Active accounts with one of the meeting's roles: who would get the mail. */
  recipients: z.number().int(),
  /** What changed since the last publication, as the mail says it (all documents, admin's view). */
  changes: z.array(z.string()),
});
export type AgendaPublication = z.infer<typeof agendaPublicationSchema>;
export const agendaPublicationResponseSchema = dataOf(agendaPublicationSchema);

/** `POST /events/{id}/agenda/publish`: the mails are queued. */
export const agendaPublishResponseSchema = z.object({
  message: z.string(),
  data: z.object({ sent: z.number().int(), published_at: z.string(), changes: z.array(z.string()) }),
});
export type AgendaPublishResponse = z.infer<typeof agendaPublishResponseSchema>;

// ---------------------------------------------------------------------------------------------
// What changed, in words ("Beginn: 18:00 → 18:30 Uhr"), the same in the mail and the form.

const pad = (n: number) => String(n).padStart(2, '0');
const dayOf = (iso: string) => {
  const w = wallClockInBerlin(new Date(iso));
  return `${pad(w.day)}.${pad(w.month)}.${w.year}`;
};
const timeOf = (iso: string) => {
  const w = wallClockInBerlin(new Date(iso));
  return `${pad(w.hour)}:${pad(w.minute)}`;
};

/** "Beginn: 18:00 → 18:30 Uhr" on the same day, else with both days. */
export function timeChange(label: string, before: string, after: string): string {
  if (dayOf(before) === dayOf(after)) return `${label}: ${timeOf(before)} → ${timeOf(after)} Uhr`;
  return `${label}: ${dayOf(before)}, ${timeOf(before)} Uhr → ${dayOf(after)}, ${timeOf(after)} Uhr`;
}

/** The facts of an event a member is told about when they change. */
export interface EventFactsState {
  title: string;
  start: string;
  end: string;
  location: string;
  description: string;
}

/** Each changed fact as one line; instants compare as instants, not as strings. */
export function factChanges(before: EventFactsState, after: EventFactsState): string[] {
  const changes: string[] = [];
  if (before.title !== after.title) changes.push(`Titel: „${before.title}“ → „${after.title}“`);
  if (Date.parse(before.start) !== Date.parse(after.start))
    changes.push(timeChange('Beginn', before.start, after.start));
  if (Date.parse(before.end) !== Date.parse(after.end))
    changes.push(timeChange('Ende', before.end, after.end));
  if (before.location !== after.location) changes.push(`Ort: ${before.location} → ${after.location}`);
  if (before.description !== after.description) changes.push('Die Beschreibung wurde geändert.');
  return changes;
}

/** Whether a calendar holding the event must take it again (time or place changed). */
export const calendarChanged = (before: EventFactsState, after: EventFactsState): boolean =>
  Date.parse(before.start) !== Date.parse(after.start) ||
  Date.parse(before.end) !== Date.parse(after.end) ||
  before.location !== after.location ||
  before.title !== after.title;
