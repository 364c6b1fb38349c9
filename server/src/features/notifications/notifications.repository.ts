import type { Kysely, Transaction } from 'kysely';
import type { NotificationFrequency } from '@gremienportal/contracts/notifications';
import type { Database } from '../../db/schema.ts';
import { rolesByObject } from '../../db/role-links.ts';
import type { Cadence } from './digest-periods.ts';

type Executor = Kysely<Database> | Transaction<Database>;
type Role = { id: number; name: string };
export type NotificationKind = 'file' | 'event';
export type NotificationAction = 'created' | 'updated';

export interface StoredSettings {
  notify_files: NotificationFrequency;
  notify_events: NotificationFrequency;
}

export function readSettings(db: Executor, userId: number): Promise<StoredSettings | undefined> {
  return db
    .selectFrom('users')
    .select(['notify_files', 'notify_events'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export async function writeSettings(
  db: Executor,
  userId: number,
  settings: StoredSettings,
  at: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...settings, updated_at: at })
    .where('id', '=', userId)
    .execute();
}

/** The settings of many members at once (the recipients of one notification). */
export async function settingsOf(
  db: Executor,
  userIds: readonly number[],
): Promise<Map<number, StoredSettings>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'notify_files', 'notify_events'])
    .where('id', 'in', [...userIds])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

export async function enqueueItems(
  db: Executor,
  rows: { user_id: number; kind: NotificationKind; object_id: number; action: NotificationAction }[],
  at: string,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('notification_queue')
    .values(rows.map((row) => ({ ...row, queued_at: at })))
    .execute();
}

/** Drops what a member still had queued of one kind (they chose "nie"). */
export async function dropQueued(db: Executor, userId: number, kind: NotificationKind): Promise<void> {
  await db.deleteFrom('notification_queue').where('user_id', '=', userId).where('kind', '=', kind).execute();
}

/**
 * Members with something queued before `cutoff` that this cadence delivers (weekly: the kinds they
 * want weekly; daily: all others, "sofort" and "nie" included, which the digest then empties) and
 * no digest of this period yet.
 */
export async function membersDue(
  db: Executor,
  cadence: Cadence,
  period: string,
  cutoff: string,
): Promise<number[]> {
  const weekly = cadence === 'weekly';
  const rows = await db
    .selectFrom('notification_queue as q')
    .innerJoin('users as u', 'u.id', 'q.user_id')
    .select('q.user_id')
    .distinct()
    .where('q.queued_at', '<', cutoff)
    .where((eb) =>
      eb.or([
        eb.and([eb('q.kind', '=', 'file'), eb('u.notify_files', weekly ? '=' : '<>', 'woechentlich')]),
        eb.and([eb('q.kind', '=', 'event'), eb('u.notify_events', weekly ? '=' : '<>', 'woechentlich')]),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('notification_digests as d')
            .select('d.id')
            .whereRef('d.user_id', '=', 'q.user_id')
            .where('d.cadence', '=', cadence)
            .where('d.period', '=', period),
        ),
      ),
    )
    .orderBy('q.user_id')
    .execute();
  return rows.map((row) => row.user_id);
}

/**
 * Claims the member's digest of this period: false when another instance (or an earlier run) has.
 * On PostgreSQL a concurrent claim waits for this transaction and then finds the row.
 */
export async function claimDigest(
  db: Executor,
  digest: { user_id: number; cadence: Cadence; period: string },
  at: string,
): Promise<number | undefined> {
  const row = await db
    .insertInto('notification_digests')
    .values({ ...digest, items: 0, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'cadence', 'period']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function setDigestItems(db: Executor, id: number, items: number): Promise<void> {
  await db.updateTable('notification_digests').set({ items }).where('id', '=', id).execute();
}

/** Removes and returns the member's queued notifications of these kinds from before `cutoff`. */
export async function takeQueued(
  db: Executor,
  userId: number,
  kinds: readonly NotificationKind[],
  cutoff: string,
): Promise<{ kind: NotificationKind; object_id: number; action: NotificationAction; queued_at: string }[]> {
  if (kinds.length === 0) return [];
  const rows = await db
    .selectFrom('notification_queue')
    .select(['id', 'kind', 'object_id', 'action', 'queued_at'])
    .where('user_id', '=', userId)
    .where('kind', 'in', [...kinds])
    .where('queued_at', '<', cutoff)
    .orderBy('id')
    .execute();
  if (rows.length > 0) {
    await db
      .deleteFrom('notification_queue')
      .where(
        'id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
  }
  return rows;
}

export interface DigestMember extends StoredSettings {
  id: number;
  email: string;
  title: string;
  firstname: string;
  lastname: string;
  roles: Role[];
}

export async function digestMember(db: Executor, userId: number): Promise<DigestMember | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'email', 'title', 'firstname', 'lastname', 'notify_files', 'notify_events'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) return undefined;
  const roles = (await rolesByObject(db, 'user_roles', [userId])).get(userId) ?? [];
  return { ...user, roles };
}

export interface DigestFile {
  id: number;
  title: string;
  format: string;
  size_bytes: number;
  folder_id: number;
  roles: Role[];
}

/** The documents that still exist among `ids`, with their roles (who may see them is the caller's question). */
export async function filesByIds(db: Executor, ids: readonly number[]): Promise<DigestFile[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('files')
    .select(['id', 'title', 'format', 'size_bytes', 'folder_id'])
    .where('id', 'in', [...ids])
    .execute();
  const roles = await rolesByObject(
    db,
    'file_roles',
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, size_bytes: Number(row.size_bytes), roles: roles.get(row.id) ?? [] }));
}

export interface DigestEvent {
  id: number;
  title: string;
  start_at: string;
  end_at: string;
  location: string;
  roles: Role[];
}

export async function eventsByIds(db: Executor, ids: readonly number[]): Promise<DigestEvent[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('events')
    .select(['id', 'title', 'start_at', 'end_at', 'location'])
    .where('id', 'in', [...ids])
    .execute();
  const roles = await rolesByObject(
    db,
    'event_roles',
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, roles: roles.get(row.id) ?? [] }));
}

/** Forgets the claims of digests made before `before`; only the latest period of each cadence can be due. */
export async function deleteDigestsBefore(db: Executor, before: string): Promise<number> {
  const result = await db
    .deleteFrom('notification_digests')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
