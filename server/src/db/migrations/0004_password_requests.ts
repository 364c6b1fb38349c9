import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Forgot-password requests waiting for the background worker (decision 118): the request only
 * stores the address, so it does the same work whether or not the address has an account. A row
 * lives until the worker has handled it, seconds as a rule. Frozen once landed.
 */
export function migration0004(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('password_requests')
        .$call((table) =>
          dialect === 'postgres'
            ? table.addColumn('id', 'serial', (c) => c.primaryKey())
            : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('email', 'varchar(255)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)')
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'varchar(30)')
        .execute();
      await db.schema
        .createIndex('password_requests_email_idx')
        .on('password_requests')
        .column('email')
        .execute();
    },
  };
}
