import type { Expression, ExpressionBuilder, Kysely, SqlBool, Transaction } from 'kysely';
import { MINUTE } from '../clock.ts';
import { groupRoles } from './role-links.ts';
import type { Database } from './schema.ts';

/*
 * What the admins' member lists share (Teilnahme of an event, decision 130; Kenntnisnahme of a
 * document, decision 131): who is on them with which roles, a person as the list shows them, the order
 * by name, the CSV's person columns, and the throttled "Erinnerung senden" slot.
 */

type Executor = Kysely<Database> | Transaction<Database>;

export interface ListedMember {
  id: number;
  title: string;
  firstname: string;
  lastname: string;
  email: string;
  roles: readonly { id: number; name: string }[];
}

/** A member with all of their roles (ordered by role id). */
export interface MemberRecord extends ListedMember {
  roles: { id: number; name: string }[];
  /** Has set a password: an invitation not yet accepted can neither answer nor confirm. */
  active: boolean;
}

/**
 * The members `which` selects (every account without it), each once with all of their roles,
 * ordered by id. The filter sees only `users`; it is applied before the role joins, so it decides
 * about people, not about role rows.
 */
export async function membersWithRoles(
  db: Executor,
  which?: (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>,
): Promise<MemberRecord[]> {
  const users = db.selectFrom('users');
  const rows = await (which ? users.where(which) : users)
    .leftJoin('user_roles', 'user_roles.user_id', 'users.id')
    .leftJoin('roles', 'roles.id', 'user_roles.role_id')
    .select([
      'users.id',
      'users.title',
      'users.firstname',
      'users.lastname',
      'users.email',
      'users.password_hash',
      'roles.id as role_id',
      'roles.name as role_name',
    ])
    .orderBy('users.id')
    .orderBy('roles.id')
    .execute();
  return groupRoles(rows).map(({ password_hash, ...user }) => ({ ...user, active: password_hash !== null }));
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
