import { MINUTE } from './clock.ts';

/*
 * What the admins' member lists share (Teilnahme of an event, issue 20; Kenntnisnahme of a
 * document, issue 21): a person as the list shows them, the order by name, the CSV's person
 * columns, and the throttled "Erinnerung senden" slot.
 */

export interface ListedMember {
  id: number;
  title: string;
  firstname: string;
  lastname: string;
  email: string;
  roles: readonly { id: number; name: string }[];
}

/** The person of a list entry: their names, address and role names. */
export const listedPerson = (member: ListedMember) => ({
  id: member.id,
  title: member.title,
  firstname: member.firstname,
  lastname: member.lastname,
  email: member.email,
  roles: member.roles.map((role) => role.name),
});
export type ListedPerson = ReturnType<typeof listedPerson>;

const byName = new Intl.Collator('de', { sensitivity: 'base' });

/** By last name, then first name (German collation, case and accents aside), then id. */
export const compareByName = (a: ListedPerson, b: ListedPerson) =>
  byName.compare(a.lastname, b.lastname) || byName.compare(a.firstname, b.firstname) || a.id - b.id;

/** The first columns of every member list's CSV: Nachname, Vorname, E-Mail, Rollen. */
export const personColumns = (person: ListedPerson) => [
  person.lastname,
  person.firstname,
  person.email,
  person.roles.join(', '),
];

/** When the next reminder may go out after one sent at `sentAt`, or null when it may now. */
export function reminderAvailableAt(sentAt: string | null, now: Date, intervalMs: number): Date | null {
  if (!sentAt) return null;
  const available = new Date(new Date(sentAt).getTime() + intervalMs);
  return available > now ? available : null;
}

/** The instant rounded up to the full minute: a "not before" time never shows earlier than allowed. */
export const roundUpToMinute = (instant: Date) => new Date(Math.ceil(instant.getTime() / MINUTE) * MINUTE);
