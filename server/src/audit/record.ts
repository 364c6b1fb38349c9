import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../clock.ts';

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
