import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * The second factor (decision 126). Frozen once landed.
 *
 * - `users.two_factor_enabled`: kept true while a TOTP seed or a passkey exists, so the per-request
 *   check (is a required factor missing?) reads one column it reads anyway.
 * - `users.totp_secret` / `totp_pending`: seeds, encrypted (secret-box.ts); `totp_last_step`: the
 *   last accepted 30-second step, so a code is never accepted twice.
 * - `recovery_codes`: SHA-256 of single-use codes. `passkeys`: WebAuthn credentials.
 * - `login_challenges`: the interim token between password and second factor (≤ 5 minutes, single
 *   use), also carrying a WebAuthn challenge. `trusted_devices`: "Diesem Gerät 30 Tage vertrauen".
 */
export function migration0006(dialect: Dialect) {
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('two_factor_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
      await db.schema.alterTable('users').addColumn('totp_pending', 'text').execute();
      await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();

      await db.schema
        .createTable('recovery_codes')
        .$call(withId)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('used_at', 'varchar(30)')
        .execute();
      await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').column('user_id').execute();

      await db.schema
        .createTable('passkeys')
        .$call(withId)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text')
        .addColumn('name', 'varchar(60)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('last_used_at', 'varchar(30)')
        .execute();
      await db.schema.createIndex('passkeys_user_idx').on('passkeys').column('user_id').execute();

      await db.schema
        .createTable('login_challenges')
        .$call(withId)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'varchar(10)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('webauthn_challenge', 'text')
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('used_at', 'varchar(30)')
        .execute();

      await db.schema
        .createTable('trusted_devices')
        .$call(withId)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('label', 'varchar(255)', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('trusted_devices_user_idx')
        .on('trusted_devices')
        .column('user_id')
        .execute();
    },
  };
}
