import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Meetings (decision 130). Frozen once landed.
 *
 * - `agenda_items`: an event's Tagesordnung, two levels (`parent_id` null for a main item),
 *   ordered by `position` among siblings. Removed with the event (cascade); the Papierkorb keeps
 *   them in the event's snapshot.
 * - `agenda_item_files`: documents linked to an item. `file_id` has no foreign key on purpose: a
 *   document in the Papierkorb leaves the link in place and comes back with it on restore; reads
 *   join `files`, so a link to a missing document shows nothing.
 * - `event_attendance`: one answer per member and event (zugesagt, abgesagt, vielleicht).
 * - `events.minutes_*`: the Protokoll der Sitzung, a stored object like the information file;
 *   `events.reminder_sent_at`: the last "Erinnerung senden" (at most once per hour).
 * - `outbox.calendar` / `calendar_method`: an iCalendar part a mail carries (the cancellation of
 *   a deleted meeting, METHOD:CANCEL).
 * - `calendar_feeds`: one personal calendar feed token per user, stored as SHA-256.
 */
export function migration0008(dialect: Dialect) {
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>): Promise<void> {
      const eventColumns: [string, string][] = [
        ['minutes_storage_key', 'varchar(200)'],
        ['minutes_download_key', 'varchar(64)'],
        ['minutes_format', 'varchar(20)'],
        ['minutes_mime_type', 'varchar(200)'],
        ['minutes_size_bytes', 'bigint'],
        ['minutes_sha256', 'varchar(64)'],
        ['minutes_published_at', 'varchar(30)'],
        ['reminder_sent_at', 'varchar(30)'],
      ];
      for (const [name, type] of eventColumns) {
        await db.schema
          .alterTable('events')
          .addColumn(name, type as 'text')
          .execute();
      }
      await db.schema.alterTable('outbox').addColumn('calendar', 'text').execute();
      await db.schema.alterTable('outbox').addColumn('calendar_method', 'varchar(10)').execute();
      await db.schema
        .createIndex('events_minutes_download_key_idx')
        .on('events')
        .column('minutes_download_key')
        .unique()
        .execute();

      await db.schema
        .createTable('agenda_items')
        .$call(withId)
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('parent_id', 'integer', (c) => c.references('agenda_items.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'varchar(255)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('presenter', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createIndex('agenda_items_event_idx')
        .on('agenda_items')
        .columns(['event_id', 'position'])
        .execute();
      await db.schema.createIndex('agenda_items_parent_idx').on('agenda_items').column('parent_id').execute();

      await db.schema
        .createTable('agenda_item_files')
        .addColumn('item_id', 'integer', (c) => c.notNull().references('agenda_items.id').onDelete('cascade'))
        .addColumn('file_id', 'integer', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('agenda_item_files_pk', ['item_id', 'file_id'])
        .execute();
      await db.schema
        .createIndex('agenda_item_files_file_idx')
        .on('agenda_item_files')
        .column('file_id')
        .execute();

      await db.schema
        .createTable('event_attendance')
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('answered_at', 'varchar(30)', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_attendance_pk', ['event_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('event_attendance_user_idx')
        .on('event_attendance')
        .column('user_id')
        .execute();

      await db.schema
        .createTable('calendar_feeds')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('last_used_at', 'varchar(30)')
        .execute();
    },
  };
}
