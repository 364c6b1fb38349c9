import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/** Frozen once landed. Dialect differences: only the auto-increment id column. */
export function migration0001(dialect: Dialect) {
  const withId = <T extends string>(table: CreateTableBuilder<T, never>) =>
    dialect === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('roles')
        .$call(withId)
        .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
        .execute();

      await db.schema
        .createTable('users')
        .$call(withId)
        .addColumn('title', 'varchar(20)', (c) => c.notNull())
        .addColumn('firstname', 'varchar(255)', (c) => c.notNull())
        .addColumn('lastname', 'varchar(255)', (c) => c.notNull())
        .addColumn('email', 'varchar(255)', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('user_roles')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
        .execute();

      await db.schema
        .createTable('sessions')
        .$call(withId)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('last_seen_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('password_tokens')
        .$call(withId)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'varchar(10)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('expires_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('used_at', 'varchar(30)')
        .execute();
      await db.schema
        .createIndex('password_tokens_user_idx')
        .on('password_tokens')
        .column('user_id')
        .execute();

      await db.schema
        .createTable('outbox')
        .$call(withId)
        .addColumn('to_address', 'varchar(255)', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('text_body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('locked_until', 'varchar(30)')
        .addColumn('sent_at', 'varchar(30)')
        .addColumn('last_error', 'text')
        .execute();
      await db.schema
        .createIndex('outbox_pending_idx')
        .on('outbox')
        .columns(['sent_at', 'next_attempt_at'])
        .execute();

      await db.schema
        .createTable('folders')
        .$call(withId)
        .addColumn('parent_id', 'integer', (c) => c.references('folders.id').onDelete('cascade'))
        .addColumn('title', 'varchar(255)', (c) => c.notNull())
        .addColumn('breadcrumb', 'text', (c) => c.notNull())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      // Sibling titles are unique regardless of case: the breadcrumbs rely on unique paths.
      await sql`create unique index folders_parent_title_idx on folders (parent_id, lower(title))`.execute(
        db,
      );

      await db.schema
        .createTable('folder_roles')
        .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('folder_roles_pk', ['folder_id', 'role_id'])
        .execute();

      await db.schema
        .createTable('files')
        .$call(withId)
        .addColumn('folder_id', 'integer', (c) => c.notNull().references('folders.id').onDelete('cascade'))
        .addColumn('title', 'varchar(255)', (c) => c.notNull())
        .addColumn('format', 'varchar(20)', (c) => c.notNull())
        .addColumn('mime_type', 'varchar(255)', (c) => c.notNull())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
        .addColumn('storage_key', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('download_key', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('files_folder_idx').on('files').column('folder_id').execute();

      await db.schema
        .createTable('file_roles')
        .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('file_roles_pk', ['file_id', 'role_id'])
        .execute();

      await db.schema
        .createTable('events')
        .$call(withId)
        .addColumn('uid', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('title', 'varchar(255)', (c) => c.notNull())
        .addColumn('start_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('end_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('location', 'varchar(255)', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('file_storage_key', 'varchar(100)', (c) => c.unique())
        .addColumn('file_download_key', 'varchar(100)', (c) => c.unique())
        .addColumn('file_format', 'varchar(20)')
        .addColumn('file_mime_type', 'varchar(255)')
        .addColumn('file_size_bytes', 'bigint')
        .addColumn('file_sha256', 'varchar(64)')
        .addColumn('created_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('event_roles')
        .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('event_roles_pk', ['event_id', 'role_id'])
        .execute();

      await db.schema
        .createTable('audit_log')
        .$call(withId)
        .addColumn('at', 'varchar(30)', (c) => c.notNull())
        .addColumn('actor_id', 'integer')
        .addColumn('actor_label', 'text')
        .addColumn('action', 'varchar(50)', (c) => c.notNull())
        .addColumn('object_type', 'varchar(20)')
        .addColumn('object_id', 'integer')
        .addColumn('object_label', 'text')
        .addColumn('details', 'text')
        .addColumn('ip', 'varchar(64)')
        .execute();
      await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
      await db.schema
        .createIndex('audit_log_object_idx')
        .on('audit_log')
        .columns(['object_type', 'object_id'])
        .execute();
    },
  };
}
