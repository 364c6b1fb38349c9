import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Every table that refers to stored objects, with the columns of key, size and checksum: the
 * one list the start-up sweep (what to keep) and the backup (what to copy) both read. A new kind
 * of stored content adds its table here, or the sweep deletes its objects.
 */
export const OBJECT_SOURCES = [
  { table: 'files', select: 'storage_key, size_bytes, sha256' },
  { table: 'file_versions', select: 'storage_key, size_bytes, sha256' },
  { table: 'trash_objects', select: 'storage_key, size_bytes, sha256' },
  {
    table: 'events',
    select: 'file_storage_key, file_size_bytes, file_sha256',
    where: 'file_storage_key is not null',
  },
  {
    table: 'events',
    select: 'minutes_storage_key, minutes_size_bytes, minutes_sha256',
    where: 'minutes_storage_key is not null',
  },
] as const;

/** `select key, size, sha256 …` over the sources whose tables exist (an older backup lacks some). */
export function referencedObjectsSql(tables: ReadonlySet<string> | 'all'): string {
  return OBJECT_SOURCES.filter((source) => tables === 'all' || tables.has(source.table))
    .map((source, index) => {
      const columns =
        index === 0
          ? source.select
              .split(', ')
              .map((column, i) => `${column} as ${['key', 'size', 'sha256'][i]}`)
              .join(', ')
          : source.select;
      return `select ${columns} from ${source.table}${'where' in source ? ` where ${source.where}` : ''}`;
    })
    .join('\nunion all\n');
}

/** The keys of every stored object a row refers to. */
export async function referencedObjects(db: Kysely<Database>): Promise<Set<string>> {
  const { rows } = await sql.raw<{ key: string }>(referencedObjectsSql('all')).execute(db);
  return new Set(rows.map((row) => row.key));
}
