import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import type { TestApp } from '../support/build-test-app.ts';

/** Every table with the columns that identify a row, for a stable order. */
const TABLES: Record<keyof Database, string[]> = {
  roles: ['id'],
  users: ['id'],
  user_roles: ['user_id', 'role_id'],
  sessions: ['id'],
  password_tokens: ['id'],
  password_requests: ['id'],
  outbox: ['id'],
  folders: ['id'],
  folder_roles: ['folder_id', 'role_id'],
  files: ['id'],
  file_roles: ['file_id', 'role_id'],
  events: ['id'],
  event_roles: ['event_id', 'role_id'],
  audit_log: ['id'],
  change_counters: ['name'],
  delivery_marks: ['session_id', 'object_kind', 'object_id', 'content_version', 'purpose'],
  file_versions: ['id'],
  trash_items: ['id'],
  trash_objects: ['storage_key'],
  recovery_codes: ['id'],
  passkeys: ['id'],
  login_challenges: ['id'],
  trusted_devices: ['id'],
  search_texts: ['kind', 'item_id'],
  agenda_items: ['id'],
  agenda_item_files: ['item_id', 'file_id'],
  event_attendance: ['event_id', 'user_id'],
  calendar_feeds: ['user_id'],
  file_reads: ['user_id', 'file_id'],
  acknowledgements: ['file_id', 'user_id'],
  acknowledgement_reminders: ['file_id'],
  notification_queue: ['id'],
  notification_digests: ['id'],
  api_keys: ['id'],
  upload_batches: ['id'],
  upload_batch_notices: ['batch_id', 'user_id', 'file_id'],
  committees: ['id'],
  committee_terms: ['id'],
  committee_memberships: ['id'],
  motions: ['id'],
  motion_files: ['motion_id', 'file_id'],
  motion_electorate: ['motion_id', 'user_id'],
  motion_votes: ['motion_id', 'user_id'],
  motion_ballots: ['id'],
  resolution_counters: ['committee_id', 'term_id'],
  resolutions: ['id'],
  resolution_follow_ups: ['id'],
  minutes: ['id'],
  minutes_versions: ['minutes_id', 'version'],
  minutes_remarks: ['id'],
  minutes_readers: ['minutes_id', 'user_id'],
  minutes_signatures: ['id'],
};
export type TableName = keyof Database;

/**
 * A fingerprint of everything a request could change: each table's rows (a session's
 * `last_seen_at` aside, which every signed-in request may touch) and the files in the storage
 * folder, temporary ones included.
 */
export interface StateSnapshot {
  tables: Record<string, string>;
  storage: string[];
}

export async function snapshot(t: TestApp): Promise<StateSnapshot> {
  const marker = await changeMarker(t);
  const known = lastTables.get(t);
  const tables = known?.marker === marker ? known.tables : await tableHashes(t);
  lastTables.set(t, { marker, tables });
  return { tables, storage: await storageListing(join(t.dataDir, 'files')) };
}

/** The table hashes of each app's last snapshot, with the change marker they were taken at. */
const lastTables = new WeakMap<TestApp, { marker: string; tables: Record<string, string> }>();

/**
 * What changes whenever a row might have. While it stands still, no table can have changed, so a
 * snapshot reuses the last one's hashes instead of reading every row again: reading and hashing
 * them took four fifths of the hostile-input run.
 * - SQLite: the rows this connection inserted, updated or deleted so far, triggers included
 *   (`total_changes()`, which also counts a rolled-back change), and the commits of other
 *   connections (`data_version`).
 * - PostgreSQL has no such counter for one database (other test files write to the same server),
 *   so the first snapshot of an app puts a statement trigger on each table of its database that
 *   draws from a sequence: any insert, update, delete or truncate, by any connection, even one
 *   rolled back or touching no row, moves it (`installChangeMarker`).
 */
async function changeMarker(t: TestApp): Promise<string> {
  if (t.db.dialect === 'postgres') {
    // An app's first snapshot, in the app's own new database.
    if (!lastTables.has(t)) await installChangeMarker(t);
    const { rows } = await sql<{ value: string }>`
      select last_value::text || '/' || is_called::text as value from test_change_marker
    `.execute(t.db.kysely);
    return rows[0]!.value;
  }
  const { rows } = await sql<{ changes: number; version: number }>`
    select total_changes() as changes, (select data_version from pragma_data_version) as version
  `.execute(t.db.kysely);
  return `${rows[0]!.changes}/${rows[0]!.version}`;
}

async function installChangeMarker(t: TestApp): Promise<void> {
  await sql`create sequence test_change_marker`.execute(t.db.kysely);
  await sql`
    create function test_change_marker_next() returns trigger language plpgsql as $$
    begin perform nextval('test_change_marker'); return null; end $$
  `.execute(t.db.kysely);
  for (const table of Object.keys(TABLES)) {
    await sql`
      create trigger test_change_marker after insert or update or delete or truncate on ${sql.table(table)}
      for each statement execute function test_change_marker_next()
    `.execute(t.db.kysely);
  }
}

async function tableHashes(t: TestApp): Promise<Record<string, string>> {
  if (t.db.dialect === 'postgres') return tableHashesInPostgres(t);
  const tables: Record<string, string> = {};
  for (const [table, order] of Object.entries(TABLES) as [TableName, string[]][]) {
    let query = t.db.kysely.selectFrom(table).selectAll();
    for (const column of order) query = query.orderBy(column as never);
    const rows = (await query.execute()) as Record<string, unknown>[];
    const stable = rows.map((row) => {
      const { last_seen_at: _touched, ...rest } = row;
      return table === 'sessions' ? rest : row;
    });
    tables[table] = createHash('sha256').update(JSON.stringify(stable)).digest('hex');
  }
  return tables;
}

/**
 * The same fingerprint computed by PostgreSQL in one query: each table's rows as JSON (a session's
 * `last_seen_at` aside) in the same order, hashed with md5, without sending a row to the test.
 */
async function tableHashesInPostgres(t: TestApp): Promise<Record<string, string>> {
  const hashes = (Object.entries(TABLES) as [TableName, string[]][]).map(([table, order]) => {
    const row = table === 'sessions' ? sql`to_jsonb(t) - 'last_seen_at'` : sql`to_jsonb(t)`;
    const orderBy = sql.join(order.map((column) => sql.ref(`t.${column}`)));
    return sql`(select md5(coalesce(string_agg((${row})::text, e'\\n' order by ${orderBy}), '')) from ${sql.table(table)} t) as ${sql.ref(table)}`;
  });
  const { rows } = await sql<Record<string, string>>`select ${sql.join(hashes)}`.execute(t.db.kysely);
  return rows[0]!;
}

async function storageListing(root: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(join(root, prefix), { withFileTypes: true }).catch(() => []);
  const listing: string[] = [];
  for (const entry of entries) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) listing.push(`${path}/`, ...(await storageListing(root, path)));
    else listing.push(`${path} ${(await stat(join(root, path))).size}`);
  }
  return listing.sort();
}

/** What changed between two snapshots, ignoring the tables a route may write even when it refuses. */
export function changes(before: StateSnapshot, after: StateSnapshot, allowed: readonly TableName[] = []) {
  const tables = Object.keys(before.tables).filter(
    (table) => !allowed.includes(table as TableName) && before.tables[table] !== after.tables[table],
  );
  const added = after.storage.filter((entry) => !before.storage.includes(entry));
  const removed = before.storage.filter((entry) => !after.storage.includes(entry));
  return { tables, storage: { added, removed } };
}

export const NO_CHANGES = { tables: [], storage: { added: [], removed: [] } };

// ---------------------------------------------------------------------------------------------
// German error answers

/** Words of English error texts (Fastify's, zod's default locale, Node's). */
const ENGLISH =
  /\b(the|is|are|must|should|expected|invalid|required|unexpected|error|cannot|not found|bad request|unsupported|too large|body|property|received|failed|missing|allowed|method|unknown|limit|reached|payload|content|type|request)\b/i;
/** At least one German word or letter. */
const GERMAN =
  /[äöüßÄÖÜ]|\b(der|die|das|den|dem|des|diese|dieser|dieses|ist|sind|nicht|bitte|ein|eine|einen|zu|kein|keine|darf|muss|kann|wurde|wird|werden|bereits|Sie|Ihr|Ihre|nur|oder|und|mit|von|auf|im|bei|als|hier|noch|gibt|es|Anfrage|Datei|Ordner|Rolle|Eingabe|Eingaben|Link|Passwort|Name|Titel)\b/i;

export function isGerman(text: unknown): boolean {
  return typeof text === 'string' && text.trim() !== '' && GERMAN.test(text) && !ENGLISH.test(text);
}

/**
 * A refusal as the API promises it (product.md P10): a JSON body `{ message, errors? }` whose message
 * and every field message are German. Returns the problems found, none when all is well.
 */
export function errorBodyProblems(res: LightMyRequestResponse): string[] {
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return [`kein JSON: ${res.body.slice(0, 120)}`];
  }
  if (typeof body !== 'object' || body === null) return ['kein Objekt'];
  const { message, errors, ...rest } = body as Record<string, unknown>;
  const problems: string[] = [];
  if (!isGerman(message)) problems.push(`Meldung nicht deutsch: ${JSON.stringify(message)}`);
  if (Object.keys(rest).length > 0) problems.push(`weitere Felder: ${Object.keys(rest).join(', ')}`);
  if (errors !== undefined) {
    if (typeof errors !== 'object' || errors === null) problems.push('errors ist kein Objekt');
    else {
      for (const [field, list] of Object.entries(errors)) {
        if (!Array.isArray(list) || list.length === 0) problems.push(`errors.${field} ist keine Liste`);
        else
          for (const text of list)
            if (!isGerman(text)) problems.push(`errors.${field}: ${JSON.stringify(text)}`);
      }
    }
  }
  return problems;
}
