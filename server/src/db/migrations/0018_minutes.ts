import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Niederschriften (decision 193). Frozen once landed.
 *
 * - `minutes`: the Niederschrift of a meeting (or a Nachtrag to one, `amends_id`) for one committee;
 *   its state (entwurf → abstimmung → unterschrift → unterzeichnet), the version a save must name
 *   (optimistic concurrency), the review round (until, audience), the frozen final PDF that the
 *   signers sign (its object key and SHA-256) and the sealed PDF (key, SHA-256, size, time), the
 *   document it was filed as in the committee's term folder.
 * - `minutes_versions`: every save, whole (header, attendance, sections as JSON), with its author:
 *   the current text is the newest; a comparison reads two of them.
 * - `minutes_remarks`: "Einwände und Ergänzungen" of the review round, per section and version.
 * - `minutes_readers`: the review's audience, when each first opened the draft, the last reminder.
 * - `minutes_signatures`: who is to sign the frozen PDF (the committee's rule on the meeting's day,
 *   or a person named at submission), with the function they sign in; once signed the time, the
 *   method and the SHA-256 they signed; or a refusal with its reason.
 */
export function migration0018(dialect: Dialect) {
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>): Promise<void> {
      await withId(db.schema.createTable('minutes'))
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id'))
        .addColumn('committee_id', 'integer', (c) => c.notNull().references('committees.id'))
        .addColumn('kind', 'varchar(20)', (c) => c.notNull().defaultTo('niederschrift'))
        .addColumn('amends_id', 'integer', (c) => c.references('minutes.id'))
        .addColumn('state', 'varchar(20)', (c) => c.notNull().defaultTo('entwurf'))
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('review_until', 'varchar(30)')
        .addColumn('review_audience', 'varchar(20)')
        .addColumn('review_version', 'integer')
        .addColumn('frozen_storage_key', 'varchar(200)')
        .addColumn('frozen_sha256', 'varchar(64)')
        .addColumn('frozen_at', 'varchar(30)')
        .addColumn('sealed_storage_key', 'varchar(200)')
        .addColumn('sealed_sha256', 'varchar(64)')
        .addColumn('sealed_size_bytes', 'integer')
        .addColumn('sealed_at', 'varchar(30)')
        .addColumn('filed_file_id', 'integer')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('minutes_event_idx')
        .on('minutes')
        .columns(['event_id', 'committee_id'])
        .execute();
      await db.schema
        .createIndex('minutes_committee_idx')
        .on('minutes')
        .columns(['committee_id', 'state'])
        .execute();
      await db.schema
        .createTable('minutes_versions')
        .addColumn('minutes_id', 'integer', (c) => c.notNull().references('minutes.id'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('saved_at', 'varchar(30)', (c) => c.notNull())
        .addPrimaryKeyConstraint('minutes_versions_pk', ['minutes_id', 'version'])
        .execute();
      await withId(db.schema.createTable('minutes_remarks'))
        .addColumn('minutes_id', 'integer', (c) => c.notNull().references('minutes.id'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('section_key', 'varchar(60)', (c) => c.notNull())
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('author_name', 'varchar(300)', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('minutes_remarks_minutes_idx')
        .on('minutes_remarks')
        .columns(['minutes_id', 'id'])
        .execute();
      await db.schema
        .createTable('minutes_readers')
        .addColumn('minutes_id', 'integer', (c) => c.notNull().references('minutes.id'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('first_opened_at', 'varchar(30)')
        .addColumn('reminded_at', 'varchar(30)')
        .addPrimaryKeyConstraint('minutes_readers_pk', ['minutes_id', 'user_id'])
        .execute();
      await withId(db.schema.createTable('minutes_signatures'))
        .addColumn('minutes_id', 'integer', (c) => c.notNull().references('minutes.id'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('signer_name', 'varchar(300)', (c) => c.notNull())
        .addColumn('function', 'varchar(60)', (c) => c.notNull())
        .addColumn('frozen_sha256', 'varchar(64)', (c) => c.notNull())
        .addColumn('method', 'varchar(40)')
        .addColumn('signed_at', 'varchar(30)')
        .addColumn('refused_at', 'varchar(30)')
        .addColumn('refusal_reason', 'text')
        .execute();
      // One place to sign per person and frozen text; a new freeze after a refusal asks anew.
      await db.schema
        .createIndex('minutes_signatures_unique')
        .on('minutes_signatures')
        .columns(['minutes_id', 'frozen_sha256', 'user_id'])
        .unique()
        .execute();
    },
  };
}
