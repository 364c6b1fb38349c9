import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { MINUTE, type Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { principalLabel, type Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import type { AuditObjectType } from '@gremienportal/contracts/audit';

/*
 * Writing the audit log. Every feature calls these inside the transaction of the change they
 * describe, as it queues mail through the outbox; reading the log is `audit.service.ts`.
 */

export interface AuditActor {
  id: number;
  label: string;
}

export interface AuditEntry {
  actor?: AuditActor | null;
  action: string;
  objectType?: AuditObjectType;
  objectId?: number | null;
  objectLabel?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
}

/** The actor and client address of an entry about a change that `actor` makes. */
export const auditBy = (actor: Actor): Pick<AuditEntry, 'actor' | 'ip'> => ({
  actor: { id: actor.principal.id, label: principalLabel(actor.principal) },
  ip: actor.ip,
});

/** The actor, client address and object of an entry about a change `actor` makes to an object. */
export const auditOn = (
  actor: Actor,
  objectType: NonNullable<AuditEntry['objectType']>,
  objectId: number | null,
  objectLabel: string | null,
): Pick<AuditEntry, 'actor' | 'ip' | 'objectType' | 'objectId' | 'objectLabel'> => ({
  ...auditBy(actor),
  objectType,
  objectId,
  objectLabel,
});

/** The same for an event, named by its title. */
export const auditOnEvent = (actor: Actor, event: { id: number; title: string }) =>
  auditOn(actor, 'event', event.id, event.title);

/** `{ [key]: { from, to } }` for a detail that changed; nothing for one that did not. */
export function changeOf<T>(key: string, from: T, to: T): Record<string, { from: T; to: T }> {
  return JSON.stringify(from) === JSON.stringify(to) ? {} : { [key]: { from, to } };
}

/** Keys that must never reach the audit log, whatever a caller passes. */
const SECRET_KEYS = /pass|token|secret|hash/i;

/**
 * Appends one audit entry. Call it with the transaction of the change it describes, so that
 * the change and its record commit or roll back together.
 */
export async function recordAudit(
  db: Kysely<Database> | Transaction<Database>,
  clock: Clock,
  entry: AuditEntry,
): Promise<void> {
  const details = entry.details
    ? Object.fromEntries(Object.entries(entry.details).filter(([key]) => !SECRET_KEYS.test(key)))
    : null;
  await db
    .insertInto('audit_log')
    .values({
      at: clock.now().toISOString(),
      actor_id: entry.actor?.id ?? null,
      actor_label: entry.actor?.label ?? null,
      action: entry.action,
      object_type: entry.objectType ?? null,
      object_id: entry.objectId ?? null,
      object_label: entry.objectLabel ?? null,
      details: details ? JSON.stringify(details) : null,
      ip: entry.ip ?? null,
    })
    .execute();
}

/**
 * Records what a user did to their own account (signing in or out, a new password, the profile):
 * they are actor and object at once.
 */
export async function recordOwnAccountAudit(
  db: Kysely<Database> | Transaction<Database>,
  clock: Clock,
  user: Pick<Principal, 'id' | 'firstname' | 'lastname' | 'email'>,
  entry: Pick<AuditEntry, 'action' | 'details' | 'ip'>,
): Promise<void> {
  const label = principalLabel(user);
  await recordAudit(db, clock, {
    ...entry,
    actor: { id: user.id, label },
    objectType: 'user',
    objectId: user.id,
    objectLabel: label,
  });
}

/**
 * Counts a repeat into the newest entry with the same action, client address and object recorded
 * since `since`: `merge` turns that entry's details into the new ones. False when there is none,
 * so that the caller records a new entry. The entry stays locked from read to write (PostgreSQL;
 * SQLite writes one at a time anyway), so repeats on several instances at once are all counted.
 */
export async function countRepeatedAudit(
  db: Db,
  entry: Required<Pick<AuditEntry, 'action' | 'objectType' | 'objectId' | 'ip'>>,
  since: string,
  merge: (current: {
    details: Record<string, unknown> | null;
    objectLabel: string | null;
  }) => Record<string, unknown>,
): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    const query = trx
      .selectFrom('audit_log')
      .select(['id', 'details', 'object_label'])
      .where('action', '=', entry.action)
      .where('at', '>=', since)
      .where((eb) => (entry.ip === null ? eb('ip', 'is', null) : eb('ip', '=', entry.ip)))
      .where('object_type', '=', entry.objectType)
      .where((eb) =>
        entry.objectId === null ? eb('object_id', 'is', null) : eb('object_id', '=', entry.objectId),
      )
      .orderBy('id', 'desc')
      .limit(1);
    // SQLite knows no FOR UPDATE; its writers take turns.
    const row = await (db.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
    if (!row) return false;
    const details = merge({ details: parseDetails(row.details), objectLabel: row.object_label });
    await trx
      .updateTable('audit_log')
      .set({ details: JSON.stringify(details) })
      .where('id', '=', row.id)
      .execute();
    return true;
  });
}

/**
 * The stored details as an object. Anything else (never written so, but the column is plain text)
 * is null, or with `keepOther` kept for display: `{ value }` for other JSON, `{ text }` for no JSON.
 */
export function parseDetails(text: string | null, keepOther = false): Record<string, unknown> | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return keepOther ? { text } : null;
  }
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (isObject) return value as Record<string, unknown>;
  return keepOther ? { value } : null;
}

/**
 * One session's deliveries of one content version are one audit entry within this window
 * (decision 116): a PDF viewer's range requests are one view, whatever piece comes first.
 */
export const DELIVERY_WINDOW_MS = 10 * MINUTE;

export interface Delivery {
  /** Null for an API-Schlüssel: every delivery to it is recorded, without the window. */
  sessionId: number | null;
  objectKind: 'file' | 'event';
  objectId: number;
  /** The storage key: replaced content is a new version and gets its own entry. */
  contentVersion: string;
  purpose: 'view' | 'download';
}

/**
 * Records a response that carries content (200 or 206, any range): the audit entry is written
 * unless this session already had this version recorded within the window. The mark and the
 * entry commit together; the upsert's conflict on the primary key decides atomically, so
 * concurrent requests, also on several instances, write exactly one entry. Returns whether an
 * entry was written.
 */
export async function recordDelivery(
  db: Kysely<Database>,
  clock: Clock,
  delivery: Delivery,
  entry: AuditEntry,
): Promise<boolean> {
  const [written] = await recordDeliveries(db, clock, [{ delivery, entry }]);
  return written!;
}

/**
 * `recordDelivery` for several contents delivered in one answer (the Sitzungsmappe carries many
 * documents), in one transaction: one commit instead of one per content. Answers per delivery
 * whether its entry was written.
 */
export async function recordDeliveries(
  db: Kysely<Database>,
  clock: Clock,
  deliveries: readonly { delivery: Delivery; entry: AuditEntry }[],
): Promise<boolean[]> {
  const now = clock.now();
  const spentBefore = new Date(now.getTime() - DELIVERY_WINDOW_MS).toISOString();
  return db.transaction().execute(async (trx) => {
    const written: boolean[] = [];
    for (const { delivery, entry } of deliveries) {
      if (delivery.sessionId === null) {
        await recordAudit(trx, clock, entry);
        written.push(true);
        continue;
      }
      // INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING: SQLite (≥ 3.35) and PostgreSQL alike;
      // a row comes back only when it was inserted or its window had passed.
      const marked = await trx
        .insertInto('delivery_marks')
        .values({
          session_id: delivery.sessionId,
          object_kind: delivery.objectKind,
          object_id: delivery.objectId,
          content_version: delivery.contentVersion,
          purpose: delivery.purpose,
          recorded_at: now.toISOString(),
        })
        .onConflict((oc) =>
          oc
            .columns(['session_id', 'object_kind', 'object_id', 'content_version', 'purpose'])
            .doUpdateSet({ recorded_at: (eb) => eb.ref('excluded.recorded_at') })
            .where('delivery_marks.recorded_at', '<=', spentBefore),
        )
        .returning('recorded_at')
        .executeTakeFirst();
      if (marked) await recordAudit(trx, clock, entry);
      written.push(marked !== undefined);
    }
    return written;
  });
}

/** Removes marks whose window has passed: they no longer hold back any entry. */
export async function deleteSpentDeliveryMarks(db: Kysely<Database>, clock: Clock): Promise<number> {
  const spentBefore = new Date(clock.now().getTime() - DELIVERY_WINDOW_MS).toISOString();
  const result = await db
    .deleteFrom('delivery_marks')
    .where('recorded_at', '<=', spentBefore)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
