import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { MINUTE, type Clock } from '../clock.ts';
import { recordAudit, type AuditEntry } from './record.ts';

/**
 * One session's deliveries of one content version are one audit entry within this window
 * (decision 116): a PDF viewer's range requests are one view, whatever piece comes first.
 */
export const DELIVERY_WINDOW_MS = 10 * MINUTE;

export interface Delivery {
  sessionId: number;
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
  const now = clock.now();
  const spentBefore = new Date(now.getTime() - DELIVERY_WINDOW_MS).toISOString();
  return db.transaction().execute(async (trx) => {
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
    if (!marked) return false;
    await recordAudit(trx, clock, entry);
    return true;
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
