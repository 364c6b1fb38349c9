import type { Kysely, Transaction } from 'kysely';
import type { Database, EventRow } from '../../db/schema.ts';
import { rolesByObject } from '../../db/role-links.ts';
import type { EventRowFilter } from '../../policies/events.policy.ts';
import type { ListedMember } from '../../db/member-lists.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** All of the user's roles, read now, so the caller can ask what they may see. */
export type Person = ListedMember;

/** The owner of a feed token (by its SHA-256), with what the feed needs to know about them. */
export async function findFeedOwner(db: Executor, tokenHash: string) {
  const row = await db
    .selectFrom('calendar_feeds')
    .innerJoin('users', 'users.id', 'calendar_feeds.user_id')
    .select(['users.id', 'users.two_factor_enabled', 'calendar_feeds.last_used_at'])
    .where('calendar_feeds.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const roles = (await rolesByObject(db, 'user_roles', [row.id])).get(row.id) ?? [];
  return { ...row, roles };
}

export function findFeed(db: Executor, userId: number) {
  return db
    .selectFrom('calendar_feeds')
    .select(['created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** One feed per user: a new token takes the place of the old one (also when two race). */
export async function saveFeed(db: Executor, userId: number, tokenHash: string, now: string): Promise<void> {
  await db
    .insertInto('calendar_feeds')
    .values({ user_id: userId, token_hash: tokenHash, created_at: now, last_used_at: null })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ token_hash: tokenHash, created_at: now, last_used_at: null }),
    )
    .execute();
}

/** Whether there was a feed to delete. */
export async function deleteFeed(db: Executor, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('calendar_feeds').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function touchFeed(db: Executor, userId: number, now: string): Promise<void> {
  await db.updateTable('calendar_feeds').set({ last_used_at: now }).where('user_id', '=', userId).execute();
}

/** Events that end at or after `sinceIso`, by start; `visible` (from policies/) narrows them. */
export async function eventsEndingSince(
  db: Executor,
  sinceIso: string,
  visible: EventRowFilter | undefined,
): Promise<EventRow[]> {
  let query = db.selectFrom('events').selectAll('events').where('events.end_at', '>=', sinceIso);
  if (visible) query = query.where(visible);
  return query.orderBy('events.start_at').orderBy('events.id').execute();
}

/** Everyone who answered Zusage to the event, with their roles. */
export async function acceptedAttendees(db: Executor, eventId: number): Promise<Person[]> {
  const rows = await db
    .selectFrom('event_attendance')
    .innerJoin('users', 'users.id', 'event_attendance.user_id')
    .select(['users.id', 'users.title', 'users.firstname', 'users.lastname', 'users.email'])
    .where('event_attendance.event_id', '=', eventId)
    .where('event_attendance.status', '=', 'zugesagt')
    .orderBy('users.id')
    .execute();
  const roles = await rolesByObject(
    db,
    'user_roles',
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, roles: roles.get(row.id) ?? [] }));
}
