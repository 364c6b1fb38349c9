import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * When a session last had a delivery of one version of a document or event file recorded in the
 * audit log (decision 116): every response with content is attributable, and a viewer's many
 * range requests stay one entry. The primary key is what the atomic upsert decides on, so
 * concurrent requests, also on several instances, record once. A mark goes with its session.
 * Frozen once landed; the same in both dialects.
 */
export function migration0003(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('delivery_marks')
        .addColumn('session_id', 'integer', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('object_kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('object_id', 'integer', (c) => c.notNull())
        .addColumn('content_version', 'varchar(255)', (c) => c.notNull())
        .addColumn('purpose', 'varchar(10)', (c) => c.notNull())
        .addColumn('recorded_at', 'varchar(30)', (c) => c.notNull())
        .addPrimaryKeyConstraint('delivery_marks_pk', [
          'session_id',
          'object_kind',
          'object_id',
          'content_version',
          'purpose',
        ])
        .execute();
      await db.schema
        .createIndex('delivery_marks_recorded_idx')
        .on('delivery_marks')
        .column('recorded_at')
        .execute();
    },
  };
}
