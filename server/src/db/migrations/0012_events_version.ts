import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/** The tables search reads events from (title, place, description, date, file, roles). */
const EVENT_TABLES = ['events', 'event_roles'] as const;

/**
 * A counter the database raises on every change to events and their roles, in the changing
 * transaction, as 0002 does for the tree: search keeps each viewer kind's folded events until it
 * changes instead of reading and folding every event on every request (decision 142). Frozen once
 * landed.
 */
export function migration0012(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.insertInto('change_counters').values({ name: 'events', value: 0 }).execute();
      if (dialect === 'postgres') {
        await sql`
          create function raise_events_version() returns trigger language plpgsql as $$
          begin
            update change_counters set value = value + 1 where name = 'events';
            return null;
          end $$`.execute(db);
        for (const table of EVENT_TABLES) {
          // Deferred to the commit, as the tree's: the counter row is locked last.
          await sql`
            create constraint trigger ${sql.raw(`${table}_events_version`)}
            after insert or update or delete on ${sql.table(table)}
            deferrable initially deferred
            for each row execute function raise_events_version()`.execute(db);
        }
        return;
      }
      for (const table of EVENT_TABLES) {
        for (const event of ['insert', 'update', 'delete']) {
          await sql`
            create trigger ${sql.raw(`${table}_events_version_${event}`)}
            after ${sql.raw(event)} on ${sql.table(table)}
            begin
              update change_counters set value = value + 1 where name = 'events';
            end`.execute(db);
        }
      }
    },
  };
}
