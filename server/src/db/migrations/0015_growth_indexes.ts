import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Two lookups that scanned a whole table on every request (decision 186, measured with ten years
 * of data). Frozen once landed; the same in both dialects.
 *
 * - `audit_log (actor_id, at)`: one person's Aktivitäten count and read their entries from the
 *   index, newest first as the page sorts, instead of every entry of the log (millions).
 * - `files (acknowledgement_required)`: "Neu für Sie" finds the few documents that ask for a
 *   Kenntnisnahme without reading every document.
 */
export function migration0015(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createIndex('audit_log_actor_idx')
        .on('audit_log')
        .columns(['actor_id', 'at'])
        .execute();
      await db.schema
        .createIndex('files_acknowledgement_idx')
        .on('files')
        .column('acknowledgement_required')
        .execute();
    },
  };
}
