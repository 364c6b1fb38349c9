import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * API-Schlüssel for technical accounts (decision 136). Frozen once landed; the same in
 * both dialects.
 *
 * - `api_keys`: one row per key; the token is stored only as its SHA-256 (`token_hash`, unique),
 *   like a session's. `user_id` is the issuing Super-Admin whose rights the key uses: deleting
 *   the account deletes its keys. `scopes` is a comma-separated list of the contract's scopes.
 *   Revoking deletes the row; the audit log keeps its history.
 */
export function migration0011(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      let table = db.schema.createTable('api_keys');
      table =
        dialect === 'postgres'
          ? table.addColumn('id', 'serial', (c) => c.primaryKey())
          : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('scopes', 'varchar(200)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('last_used_at', 'varchar(30)')
        .execute();
      await db.schema.createIndex('api_keys_user_idx').on('api_keys').column('user_id').execute();
    },
  };
}
