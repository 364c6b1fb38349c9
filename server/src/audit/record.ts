import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';

export interface AuditActor {
  id: number;
  label: string;
}

export interface AuditEntry {
  actor?: AuditActor | null;
  action: string;
  objectType?: 'user' | 'folder' | 'file' | 'event' | 'period' | 'session';
  objectId?: number | null;
  objectLabel?: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
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

function parseDetails(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
