import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Mails as mail clients expect (decision 133). Frozen once landed; the same in both
 * dialects.
 *
 * - `outbox.html_body`: the HTML alternative rendered with the text; null for mails queued
 *   before, which are still sent as text only.
 * - `outbox.list_unsubscribe`: the notification settings page a notification's
 *   `List-Unsubscribe` header points at.
 */
export function migration0010(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('outbox').addColumn('html_body', 'text').execute();
      await db.schema.alterTable('outbox').addColumn('list_unsubscribe', 'varchar(500)').execute();
    },
  };
}
