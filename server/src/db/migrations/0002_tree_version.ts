import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/** The tables the folder tree is built from; any change to them changes the tree. */
export const TREE_TABLES = ['folders', 'folder_roles', 'files', 'file_roles'] as const;

/**
 * A counter the database raises on every change to the tree's tables, in the changing
 * transaction: every instance can tell whether its cached tree is still current by reading one
 * row (decision 111). Frozen once landed.
 */
export function migration0002(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('change_counters')
        .addColumn('name', 'varchar(50)', (c) => c.primaryKey())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .execute();
      await db.insertInto('change_counters').values({ name: 'tree', value: 0 }).execute();

      if (dialect === 'postgres') {
        await sql`
          create function raise_tree_version() returns trigger language plpgsql as $$
          begin
            update change_counters set value = value + 1 where name = 'tree';
            return null;
          end $$`.execute(db);
        for (const table of TREE_TABLES) {
          // Deferred to the commit: the counter row is locked last, so a writer holding it never
          // waits for another lock and two writers cannot deadlock on it.
          await sql`
            create constraint trigger ${sql.raw(`${table}_tree_version`)}
            after insert or update or delete on ${sql.table(table)}
            deferrable initially deferred
            for each row execute function raise_tree_version()`.execute(db);
        }
        return;
      }
      for (const table of TREE_TABLES) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql`
            create trigger ${sql.raw(`${table}_tree_version_${event}`)}
            after ${sql.raw(event)} on ${sql.table(table)}
            begin
              update change_counters set value = value + 1 where name = 'tree';
            end`.execute(db);
        }
      }
    },
  };
}
