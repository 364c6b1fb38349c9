import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Neu für Sie, Kenntnisnahme and Benachrichtigungen (decision 131). Frozen once landed;
 * the same in both dialects.
 *
 * - `users.news_read_at`: "Alle als gelesen markieren" for everything, a watermark: nothing whose
 *   content is older is new. `users.news_version`: raised with every change of the member's read
 *   state, so every instance can tell whether its cached "what is new" is still current.
 * - `users.notify_files` / `notify_events`: sofort, taeglich, woechentlich or nie.
 * - `file_reads`: when a member last read a document (opened, downloaded or marked read) and when
 *   they last received its content (`opened_at`, what a Kenntnisnahme needs). Only rows newer
 *   than the member's watermark matter for "neu"; marking everything read deletes the others
 *   unless they record an opening.
 * - `files.acknowledgement_*`: whether a Kenntnisnahme is required, until when, and since when
 *   (a replaced content that asks again starts a new request; older confirmations stop counting).
 * - `acknowledgements`: one confirmation per member and document, never withdrawn.
 * - `acknowledgement_reminders`: the last "Erinnerung senden" per document (at most once a day);
 *   apart from `files`, whose every update raises the folder tree's version.
 * - `notification_queue`: notifications waiting for a member's daily or weekly digest.
 * - `notification_digests`: one row per member, cadence and period; its unique key makes a
 *   digest go out once however many instances build it.
 */
export function migration0009(dialect: Dialect) {
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('users').addColumn('news_read_at', 'varchar(30)').execute();
      await db.schema
        .alterTable('users')
        .addColumn('news_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('notify_files', 'varchar(12)', (c) => c.notNull().defaultTo('taeglich'))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('notify_events', 'varchar(12)', (c) => c.notNull().defaultTo('sofort'))
        .execute();

      await db.schema
        .alterTable('files')
        .addColumn('acknowledgement_required', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('files').addColumn('acknowledgement_due', 'varchar(10)').execute();
      await db.schema.alterTable('files').addColumn('acknowledgement_since', 'varchar(30)').execute();
      // "What is new for me": documents whose content is newer than the member's watermark.
      await db.schema.createIndex('files_content_at_idx').on('files').column('content_at').execute();

      await db.schema
        .createTable('file_reads')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
        .addColumn('read_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('opened_at', 'varchar(30)')
        .addPrimaryKeyConstraint('file_reads_pk', ['user_id', 'file_id'])
        .execute();
      await db.schema.createIndex('file_reads_file_idx').on('file_reads').column('file_id').execute();

      await db.schema
        .createTable('acknowledgements')
        .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('confirmed_at', 'varchar(30)', (c) => c.notNull())
        .addPrimaryKeyConstraint('acknowledgements_pk', ['file_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('acknowledgements_user_idx')
        .on('acknowledgements')
        .column('user_id')
        .execute();

      await db.schema
        .createTable('acknowledgement_reminders')
        .addColumn('file_id', 'integer', (c) => c.primaryKey().references('files.id').onDelete('cascade'))
        .addColumn('sent_at', 'varchar(30)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('notification_queue')
        .$call(withId)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('object_id', 'integer', (c) => c.notNull())
        .addColumn('action', 'varchar(10)', (c) => c.notNull())
        .addColumn('queued_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('notification_queue_user_idx')
        .on('notification_queue')
        .columns(['user_id', 'queued_at'])
        .execute();
      await db.schema
        .createIndex('notification_queue_queued_idx')
        .on('notification_queue')
        .column('queued_at')
        .execute();

      await db.schema
        .createTable('notification_digests')
        .$call(withId)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('cadence', 'varchar(12)', (c) => c.notNull())
        .addColumn('period', 'varchar(10)', (c) => c.notNull())
        .addColumn('items', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addUniqueConstraint('notification_digests_key', ['user_id', 'cadence', 'period'])
        .execute();
      await db.schema
        .createIndex('notification_digests_created_idx')
        .on('notification_digests')
        .column('created_at')
        .execute();
    },
  };
}
