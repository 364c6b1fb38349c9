import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Versions and the Papierkorb (decision 125). Frozen once landed.
 *
 * - `files` learns its version number and who stored the current content when.
 * - `file_versions`: earlier contents of a document; their stored objects are kept until
 *   `VERSIONS_KEEP` or a purge removes them.
 * - `trash_items`: a deleted document, folder (with its subtree) or event as it was, as a JSON
 *   snapshot of its rows; the live tables no longer hold it, so no read can show it.
 * - `trash_objects`: the stored objects a trash item keeps alive (the start-up sweep and the backup
 *   read them like `files.storage_key`).
 */
export function migration0005(dialect: Dialect) {
  const id = dialect === 'postgres' ? ('serial' as const) : ('integer' as const);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('files')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('files').addColumn('content_at', 'varchar(30)').execute();
      await db.schema.alterTable('files').addColumn('content_by_label', 'text').execute();
      await db.schema.alterTable('files').addColumn('restored_from', 'integer').execute();
      await db
        .updateTable('files')
        .set((eb: any) => ({ content_at: eb.ref('updated_at') }))
        .execute();

      await db.schema
        .createTable('file_versions')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('file_id', 'integer', (c) => c.notNull().references('files.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('format', 'varchar(20)', (c) => c.notNull())
        .addColumn('mime_type', 'varchar(255)', (c) => c.notNull())
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
        .addColumn('storage_key', 'varchar(100)', (c) => c.notNull().unique())
        .addColumn('content_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('content_by_label', 'text')
        .addColumn('restored_from', 'integer')
        .addColumn('replaced_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('replaced_by_label', 'text')
        .addUniqueConstraint('file_versions_file_version_uq', ['file_id', 'version'])
        .execute();

      await db.schema
        .createTable('trash_items')
        .addColumn('id', id, (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('object_id', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('former_path', 'text')
        .addColumn('former_parent_id', 'integer')
        .addColumn('deleted_at', 'varchar(30)', (c) => c.notNull())
        .addColumn('deleted_by', 'integer')
        .addColumn('deleted_by_label', 'text')
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('file_count', 'integer', (c) => c.notNull())
        .addColumn('folder_count', 'integer', (c) => c.notNull())
        .addColumn('snapshot', 'text', (c) => c.notNull())
        .addUniqueConstraint('trash_items_object_uq', ['kind', 'object_id'])
        .execute();
      await db.schema.createIndex('trash_items_deleted_idx').on('trash_items').column('deleted_at').execute();

      await db.schema
        .createTable('trash_objects')
        .addColumn('storage_key', 'varchar(100)', (c) => c.primaryKey())
        .addColumn('trash_id', 'integer', (c) => c.notNull().references('trash_items.id').onDelete('cascade'))
        .addColumn('size_bytes', 'bigint', (c) => c.notNull())
        .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('trash_objects_item_idx').on('trash_objects').column('trash_id').execute();
    },
  };
}
