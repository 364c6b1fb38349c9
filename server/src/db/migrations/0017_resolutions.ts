import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Beschlüsse (decision 190). Frozen once landed.
 *
 * - `motions`: a Beschlussvorlage of a committee, in a meeting's agenda item or standing alone;
 *   its mode, majority, basis and quorum (the committee's rules unless the motion says), its state
 *   and, once opened, the procedure, the deadline, whether a vote may be changed, and the hand
 *   counts of a meeting. `motion_files`: its linked documents (no foreign key on `file_id`, as
 *   the agenda's: a document in the Papierkorb keeps its link).
 * - `motion_electorate`: who may vote, fixed when the vote opens; the "has voted" mark (`voted`,
 *   no time), an objection, a conflict of interest, when the mail went out and the motion was
 *   first opened, the last reminder.
 * - `motion_votes`: open and named votes, one per member (changeable where allowed).
 * - `motion_ballots`: secret votes: a random id and the choice, nothing else; on SQLite a table
 *   without rowid, so rows lie in the order of their random ids, not of their arrival.
 * - `resolutions`: the Beschlussbuch, never updated: number (`AR 2026/07`), the record as
 *   canonical JSON, its SHA-256 chained to the committee's previous entry, a correction's link.
 *   `resolution_counters`: the next number per committee and term, never going back.
 * - `resolution_follow_ups`: Umsetzung of a resolution, outside the chain.
 */
export function migration0017(dialect: Dialect) {
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>): Promise<void> {
      await withId(db.schema.createTable('motions'))
        .addColumn('committee_id', 'integer', (c) => c.notNull().references('committees.id'))
        .addColumn('event_id', 'integer', (c) => c.references('events.id').onDelete('set null'))
        .addColumn('agenda_item_id', 'integer', (c) => c.references('agenda_items.id').onDelete('set null'))
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('justification', 'text', (c) => c.notNull())
        .addColumn('mode', 'varchar(20)', (c) => c.notNull())
        .addColumn('majority', 'varchar(20)', (c) => c.notNull())
        .addColumn('majority_basis', 'varchar(20)', (c) => c.notNull())
        .addColumn('quorum', 'varchar(20)', (c) => c.notNull())
        .addColumn('state', 'varchar(20)', (c) => c.notNull().defaultTo('entwurf'))
        .addColumn('procedure', 'varchar(20)')
        .addColumn('deadline', 'varchar(30)')
        .addColumn('changes_allowed', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('opened_at', 'varchar(30)')
        .addColumn('closed_at', 'varchar(30)')
        .addColumn('hand_ja', 'integer')
        .addColumn('hand_nein', 'integer')
        .addColumn('hand_enthaltung', 'integer')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('motions_committee_idx')
        .on('motions')
        .columns(['committee_id', 'state'])
        .execute();
      await db.schema.createIndex('motions_event_idx').on('motions').column('event_id').execute();
      // The minute job looks for running Umlaufverfahren by their deadline.
      await db.schema
        .createIndex('motions_deadline_idx')
        .on('motions')
        .columns(['state', 'deadline'])
        .execute();

      await db.schema
        .createTable('motion_files')
        .addColumn('motion_id', 'integer', (c) => c.notNull().references('motions.id').onDelete('cascade'))
        .addColumn('file_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('motion_files_pk', ['motion_id', 'file_id'])
        .execute();

      await db.schema
        .createTable('motion_electorate')
        .addColumn('motion_id', 'integer', (c) => c.notNull().references('motions.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('holder_name', 'varchar(300)', (c) => c.notNull())
        .addColumn('function', 'varchar(30)', (c) => c.notNull())
        .addColumn('voted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('conflicted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('objected_at', 'varchar(30)')
        .addColumn('objection_reason', 'text')
        .addColumn('mailed_at', 'varchar(30)')
        .addColumn('first_opened_at', 'varchar(30)')
        .addColumn('reminded_at', 'varchar(30)')
        .addPrimaryKeyConstraint('motion_electorate_pk', ['motion_id', 'user_id'])
        .execute();

      await db.schema
        .createTable('motion_votes')
        .addColumn('motion_id', 'integer', (c) => c.notNull().references('motions.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('choice', 'varchar(20)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .addPrimaryKeyConstraint('motion_votes_pk', ['motion_id', 'user_id'])
        .execute();

      if (dialect === 'postgres') {
        await db.schema
          .createTable('motion_ballots')
          .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
          .addColumn('motion_id', 'integer', (c) => c.notNull().references('motions.id').onDelete('cascade'))
          .addColumn('choice', 'varchar(20)', (c) => c.notNull())
          .execute();
      } else {
        await sql`
          create table motion_ballots (
            id varchar(36) primary key,
            motion_id integer not null references motions(id) on delete cascade,
            choice varchar(20) not null
          ) without rowid`.execute(db);
      }
      await db.schema
        .createIndex('motion_ballots_motion_idx')
        .on('motion_ballots')
        .column('motion_id')
        .execute();

      await db.schema
        .createTable('resolution_counters')
        .addColumn('committee_id', 'integer', (c) => c.notNull().references('committees.id'))
        .addColumn('term_id', 'integer', (c) => c.notNull().references('committee_terms.id'))
        .addColumn('last_number', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('resolution_counters_pk', ['committee_id', 'term_id'])
        .execute();

      await withId(db.schema.createTable('resolutions'))
        .addColumn('committee_id', 'integer', (c) => c.notNull().references('committees.id'))
        .addColumn('term_id', 'integer', (c) => c.notNull().references('committee_terms.id'))
        .addColumn('motion_id', 'integer', (c) => c.references('motions.id').onDelete('set null'))
        .addColumn('number', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('sequence', 'integer', (c) => c.notNull())
        .addColumn('result', 'varchar(30)', (c) => c.notNull())
        .addColumn('established_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('previous_hash', 'varchar(64)')
        .addColumn('hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('corrects_id', 'integer', (c) => c.references('resolutions.id'))
        .execute();
      await db.schema
        .createIndex('resolutions_chain_idx')
        .on('resolutions')
        .columns(['committee_id', 'id'])
        .execute();

      await withId(db.schema.createTable('resolution_follow_ups'))
        .addColumn('resolution_id', 'integer', (c) => c.notNull().references('resolutions.id'))
        .addColumn('responsible_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('due_on', 'varchar(10)')
        .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('offen'))
        .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('reminded_on', 'varchar(10)')
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('resolution_follow_ups_due_idx')
        .on('resolution_follow_ups')
        .columns(['status', 'due_on'])
        .execute();
    },
  };
}
