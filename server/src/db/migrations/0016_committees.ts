import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { DEFAULT_COMMITTEE_RULES } from '@gremienportal/contracts/committees';
import type { Dialect } from '../dialect.ts';

/**
 * Gremien, Amtsperioden, Mitgliedschaften (decision 189). Frozen once landed.
 *
 * - `committees`: name, kind, the role the committee grants (unique: one committee per role), its
 *   folder and its rules (JSON, checked against the contract's schema when read).
 * - `committee_terms`: `starts_on`/`ends_on` (`YYYY-MM-DD`), the term's folder; `archived` once the
 *   term has ended (its folder is read-only), `reopened` while a Super-Admin lets it be corrected.
 *   The tree shows "Archiv": every change to the table raises the tree's counter, as the tree's
 *   own tables do (migration 0002).
 * - `committee_memberships`: a person's function in a term, `valid_from`/`valid_until` inclusive.
 *   `state` is what the portal has applied (`pending`, `active`, `ended`): the start and the end
 *   each happen once, claimed by the update that moves the state. `user_id` is set null when the
 *   account is deleted; `holder_name` keeps the name for the history.
 * - `user_roles.direct` / `via_committee`: a row is the role a person holds (effective roles), granted
 *   by an admin, by an active membership, or both; every reader of `user_roles` keeps reading the
 *   effective roles, and the admin's role form edits only `direct`.
 * - `users.email_visible_to_committees`: the member lets fellow members see the address.
 *
 * Existing portals get the two committees the specification's roles stand for.
 */
export function migration0016(dialect: Dialect) {
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>): Promise<void> {
      await withId(db.schema.createTable('committees'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('kind', 'varchar(30)', (c) => c.notNull())
        .addColumn('role_id', 'integer', (c) => c.notNull().unique().references('roles.id'))
        .addColumn('folder_id', 'integer', (c) => c.references('folders.id').onDelete('set null'))
        .addColumn('rules', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .execute();

      await withId(db.schema.createTable('committee_terms'))
        .addColumn('committee_id', 'integer', (c) => c.notNull().references('committees.id'))
        .addColumn('starts_on', 'varchar(10)', (c) => c.notNull())
        .addColumn('ends_on', 'varchar(10)', (c) => c.notNull())
        .addColumn('folder_id', 'integer', (c) => c.references('folders.id').onDelete('set null'))
        .addColumn('archived', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('reopened', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      if (dialect === 'postgres') {
        await sql`
          create constraint trigger committee_terms_tree_version
          after insert or update or delete on committee_terms
          deferrable initially deferred
          for each row execute function raise_tree_version()`.execute(db);
      } else {
        for (const event of ['insert', 'update', 'delete']) {
          await sql`
            create trigger ${sql.raw(`committee_terms_tree_version_${event}`)}
            after ${sql.raw(event)} on committee_terms
            begin
              update change_counters set value = value + 1 where name = 'tree';
            end`.execute(db);
        }
      }
      await db.schema
        .createIndex('committee_terms_committee_idx')
        .on('committee_terms')
        .columns(['committee_id', 'starts_on'])
        .execute();

      await withId(db.schema.createTable('committee_memberships'))
        .addColumn('committee_id', 'integer', (c) => c.notNull().references('committees.id'))
        .addColumn('term_id', 'integer', (c) => c.notNull().references('committee_terms.id'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('holder_name', 'varchar(300)', (c) => c.notNull())
        .addColumn('function', 'varchar(30)', (c) => c.notNull())
        .addColumn('rank', 'integer')
        .addColumn('valid_from', 'varchar(10)', (c) => c.notNull())
        .addColumn('valid_until', 'varchar(10)', (c) => c.notNull())
        .addColumn('district', 'varchar(100)')
        .addColumn('reason', 'varchar(30)')
        .addColumn('state', 'varchar(10)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('succeeded_by', 'integer')
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('committee_memberships_user_idx')
        .on('committee_memberships')
        .column('user_id')
        .execute();
      await db.schema
        .createIndex('committee_memberships_term_idx')
        .on('committee_memberships')
        .columns(['term_id', 'function'])
        .execute();
      await db.schema
        .createIndex('committee_memberships_due_idx')
        .on('committee_memberships')
        .columns(['state', 'valid_from', 'valid_until'])
        .execute();

      await db.schema
        .alterTable('user_roles')
        .addColumn('direct', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .alterTable('user_roles')
        .addColumn('via_committee', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('users')
        .addColumn('email_visible_to_committees', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      const now = new Date().toISOString();
      const roles = await db.selectFrom('roles').select(['id', 'name']).execute();
      const folders = await db.selectFrom('folders').select(['id']).where('id', 'in', [2, 3]).execute();
      const initial = [
        { name: 'Aufsichtsrat', kind: 'aufsichtsrat', role: 'Aufsichtsrat', folder: 2 },
        { name: 'Vertreterversammlung', kind: 'vertreterversammlung', role: 'Vertreter', folder: 3 },
      ];
      for (const committee of initial) {
        const role = roles.find((row: { name: string }) => row.name === committee.role);
        if (!role) continue;
        await db
          .insertInto('committees')
          .values({
            name: committee.name,
            kind: committee.kind,
            role_id: role.id,
            folder_id: folders.some((row: { id: number }) => row.id === committee.folder)
              ? committee.folder
              : null,
            rules: JSON.stringify(DEFAULT_COMMITTEE_RULES),
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
    },
  };
}
