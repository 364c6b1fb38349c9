import { forCount, plural } from '../lib/plural';

/**
 * What "Erinnerung senden" asks before it sends, in the admins' lists: who gets a mail and what it
 * asks for, with noun and verb agreeing with the count.
 * `reminderQuestion(1, 'Antwort', 'Zu- oder Absage')` → "1 Person ohne Antwort erhält eine E-Mail
 * mit der Bitte um Zu- oder Absage."
 */
export function reminderQuestion(pending: number, without: string, request: string): string {
  return `${plural(pending, 'Person', 'Personen')} ohne ${without} ${forCount(pending, 'erhält', 'erhalten')} eine E-Mail mit der Bitte um ${request}.`;
}
