import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.ts';

/**
 * Search (decision 128). `search_texts` holds the text read from each document and
 * event information file, and is the extraction queue at once: triggers on `files` and `events`
 * mark an item `pending` in the writing transaction whenever its stored content changes (upload,
 * replacement, version restore, restore from the Papierkorb) and remove it with the item, so no
 * write path can forget it and a crash cannot separate the two. The indexer leases pending rows.
 *
 * SQLite: the folded text goes into the FTS5 table `search_fts` (trigram: any part of a word,
 * contentless, rowid = id·2 for documents, id·2+1 for events). PostgreSQL: `folded` with a
 * pg_trgm GIN index. Frozen once landed.
 */
export function migration0007(dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('search_texts')
        .addColumn('kind', 'varchar(10)', (c) => c.notNull())
        .addColumn('item_id', 'integer', (c) => c.notNull())
        .addColumn('content_key', 'varchar(200)', (c) => c.notNull())
        .addColumn('format', 'varchar(20)', (c) => c.notNull())
        .addColumn('state', 'varchar(10)', (c) => c.notNull())
        .addColumn('reason', 'varchar(20)')
        .addColumn('text', 'text')
        .addColumn('folded', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'varchar(30)')
        .addColumn('updated_at', 'varchar(30)', (c) => c.notNull())
        .addPrimaryKeyConstraint('search_texts_pk', ['kind', 'item_id'])
        .execute();
      // The queue: only what waits or is being read, oldest first (the rest is most of the table).
      await db.schema
        .createIndex('search_texts_queue_idx')
        .on('search_texts')
        .column('updated_at')
        .where(sql.ref('state'), 'in', ['pending', 'working'])
        .execute();
      // Raised by the indexer with every stored text: cached term lookups are valid while it stays.
      await db.insertInto('change_counters').values({ name: 'search', value: 0 }).execute();

      if (dialect === 'postgres') {
        await sql`create extension if not exists pg_trgm`.execute(db);
        await sql`create index search_texts_folded_trgm on search_texts using gin (folded gin_trgm_ops)`.execute(
          db,
        );
        await sql`
          create function search_enqueue(k text, id integer, content text, fmt text) returns void
          language sql as $$
            insert into search_texts (kind, item_id, content_key, format, state, attempts, updated_at)
            values (k, id, content, fmt, 'pending', 0, to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            on conflict (kind, item_id) do update
              set content_key = excluded.content_key, format = excluded.format, state = 'pending',
                  attempts = 0, reason = null, locked_until = null, updated_at = excluded.updated_at
          $$`.execute(db);
        await sql`
          create function search_files_changed() returns trigger language plpgsql as $$
          begin
            if tg_op = 'DELETE' then
              delete from search_texts where kind = 'file' and item_id = old.id;
            elsif tg_op = 'INSERT' or new.storage_key is distinct from old.storage_key then
              perform search_enqueue('file', new.id, new.storage_key, new.format);
            end if;
            return null;
          end $$`.execute(db);
        await sql`
          create trigger files_search after insert or update or delete on files
          for each row execute function search_files_changed()`.execute(db);
        await sql`
          create function search_events_changed() returns trigger language plpgsql as $$
          begin
            if tg_op = 'DELETE' or new.file_storage_key is null then
              delete from search_texts where kind = 'event' and item_id = coalesce(new.id, old.id);
            elsif tg_op = 'INSERT' or new.file_storage_key is distinct from old.file_storage_key then
              perform search_enqueue('event', new.id, new.file_storage_key, new.file_format);
            end if;
            return null;
          end $$`.execute(db);
        await sql`
          create trigger events_search after insert or update or delete on events
          for each row execute function search_events_changed()`.execute(db);
      } else {
        await sql`
          create virtual table search_fts using fts5(
            body, tokenize = 'trigram', content = '', contentless_delete = 1
          )`.execute(db);
        const enqueue = (kind: string, id: string, key: string, format: string) =>
          sql.raw(`
          insert into search_texts (kind, item_id, content_key, format, state, attempts, updated_at)
          values ('${kind}', ${id}, ${key}, ${format}, 'pending', 0, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
          on conflict (kind, item_id) do update
            set content_key = excluded.content_key, format = excluded.format, state = 'pending',
                attempts = 0, reason = null, locked_until = null, updated_at = excluded.updated_at;`);
        const remove = (kind: string, rowid: string) =>
          sql.raw(`
          delete from search_texts where kind = '${kind}' and item_id = old.id;
          delete from search_fts where rowid = ${rowid};`);
        await sql`
          create trigger files_search_insert after insert on files begin
          ${enqueue('file', 'new.id', 'new.storage_key', 'new.format')}
          end`.execute(db);
        await sql`
          create trigger files_search_update after update of storage_key on files
          when new.storage_key is not old.storage_key begin
          ${enqueue('file', 'new.id', 'new.storage_key', 'new.format')}
          end`.execute(db);
        await sql`
          create trigger files_search_delete after delete on files begin
          ${remove('file', 'old.id * 2')}
          end`.execute(db);
        await sql`
          create trigger events_search_insert after insert on events
          when new.file_storage_key is not null begin
          ${enqueue('event', 'new.id', 'new.file_storage_key', 'new.file_format')}
          end`.execute(db);
        await sql`
          create trigger events_search_update after update of file_storage_key on events
          when new.file_storage_key is not null and new.file_storage_key is not old.file_storage_key begin
          ${enqueue('event', 'new.id', 'new.file_storage_key', 'new.file_format')}
          end`.execute(db);
        await sql`
          create trigger events_search_file_removed after update of file_storage_key on events
          when new.file_storage_key is null and old.file_storage_key is not null begin
          ${remove('event', 'old.id * 2 + 1')}
          end`.execute(db);
        await sql`
          create trigger events_search_delete after delete on events begin
          ${remove('event', 'old.id * 2 + 1')}
          end`.execute(db);
      }

      // What exists already waits for its first extraction.
      const now = new Date().toISOString();
      await db
        .insertInto('search_texts')
        .columns(['kind', 'item_id', 'content_key', 'format', 'state', 'attempts', 'updated_at'])
        .expression(
          db
            .selectFrom('files')
            .select([
              sql.lit('file').as('kind'),
              'id',
              'storage_key',
              'format',
              sql.lit('pending').as('state'),
              sql.lit(0).as('attempts'),
              sql.lit(now).as('updated_at'),
            ]),
        )
        .execute();
      await db
        .insertInto('search_texts')
        .columns(['kind', 'item_id', 'content_key', 'format', 'state', 'attempts', 'updated_at'])
        .expression(
          db
            .selectFrom('events')
            .where('file_storage_key', 'is not', null)
            .select([
              sql.lit('event').as('kind'),
              'id',
              'file_storage_key',
              'file_format',
              sql.lit('pending').as('state'),
              sql.lit(0).as('attempts'),
              sql.lit(now).as('updated_at'),
            ]),
        )
        .execute();
    },
  };
}
