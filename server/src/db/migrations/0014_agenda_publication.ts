import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * "Tagesordnung veröffentlichen" (decision 181). Frozen once landed; the same in both dialects.
 *
 * - `events.agenda_published_at`: when the agenda was last mailed to the meeting's members; null
 *   while it was never published.
 * - `events.agenda_published_state`: what that mail told (time, place, items and their
 *   documents) as JSON, so that the next publication mails only what changed since.
 */
export function migration0014(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('events').addColumn('agenda_published_at', 'varchar(30)').execute();
      await db.schema.alterTable('events').addColumn('agenda_published_state', 'text').execute();
    },
  };
}
