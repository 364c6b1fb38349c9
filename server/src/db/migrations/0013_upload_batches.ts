import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Several documents in one go (decision 182). Frozen once landed; the same in both dialects.
 *
 * - `upload_batches`: one row per client-chosen batch id, written by its first document. Open
 *   while `completed_at` is null; the completion (explicit, or after a quiet period) sets it in
 *   the transaction that writes the batch's mails, so the mails go out once however many
 *   instances try. `created_by` is the admin who began it (only they add to it or complete it);
 *   `mails` is what the completion composed, so a repeated completion answers the same.
 * - `upload_batch_notices`: the mails a batch still owes: one row per member told at once
 *   ("sofort") and document, written with the document. `file_id` has no foreign key, as the
 *   digest queue's `object_id`: a document deleted meanwhile is left out when the mail is composed.
 */
export function migration0013(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('upload_batches')
        .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('last_file_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('files', 'integer', (c) => c.notNull())
        .addColumn('completed_at', 'varchar(30)')
        .addColumn('mails', 'integer', (c) => c.notNull())
        .execute();
      // The quiet-period scan (open batches by their last document) and the clean-up (by completion).
      await db.schema
        .createIndex('upload_batches_open_idx')
        .on('upload_batches')
        .columns(['completed_at', 'last_file_at'])
        .execute();

      await db.schema
        .createTable('upload_batch_notices')
        .addColumn('batch_id', 'varchar(36)', (c) =>
          c.notNull().references('upload_batches.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('file_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('upload_batch_notices_pk', ['batch_id', 'user_id', 'file_id'])
        .execute();
    },
  };
}
