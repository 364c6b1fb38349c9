import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { Migrator, sql, type InsertObject, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { API_KEY_PREFIX } from '@gremienportal/contracts/api-keys';
import { buildApp } from '../../src/app.ts';
import { systemClock } from '../../src/clock.ts';
import { configSchema } from '../../src/config.ts';
import { migrateToLatest, openDatabase, type Db } from '../../src/db/database.ts';
import { seedDemoData } from '../../src/db/demo-seed.ts';
import { migrationsFor } from '../../src/db/migrations/index.ts';
import type { Database } from '../../src/db/schema.ts';
import { seedBaseData } from '../../src/db/seed.ts';
import { trashFile } from '../../src/features/trash/move-to-trash.service.ts';
import { loadSecretBox } from '../../src/credentials/secret-box.ts';
import { DiskStorage } from '../../src/storage/disk-storage.ts';
import { hashToken, newToken } from '../../src/credentials/tokens.ts';
import { newKey } from '../../src/storage/object-keys.ts';
import { MemoryTransport } from '../support/build-test-app.ts';
import {
  createPostgresDatabase,
  expectStoredConsistently,
  sha256,
  storageContents,
  storedRows,
} from '../reliability/inspect.ts';

/**
 * The PostgreSQL backup as README "Backup (PostgreSQL)" and "Restore (PostgreSQL)" describe it, run
 * word for word: a database with a row in every table (the database itself lists the tables, so a
 * table added later without a row here fails), its documents and the key of its TOTP seeds come
 * back whole into a fresh database and an empty data folder, and the portal works there.
 */

const baseUrl = process.env.TEST_DATABASE_URL ?? '';
const RSYNC = 'rsync -a "$DATA_DIR/files/" "$T/files/"';
/** README's order: documents, dump, the same copy again, the key (SECRET_KEY unset). */
const BACKUP = [
  RSYNC,
  'pg_dump -Fc "$DATABASE_URL" > "$T/portal.dump"',
  RSYNC,
  'cp -p "$DATA_DIR/secret.key" "$T/"',
];
const RESTORE = [
  'pg_restore --clean --if-exists -d "$DATABASE_URL" "$T/portal.dump"',
  'rsync -a "$T/files/" "$DATA_DIR/files/"',
  'cp -p "$T/secret.key" "$DATA_DIR/"',
];
const ADMIN = { email: 'admin@example.org', password: 'Start-Passwort-123' };
const TOTP_SEED = 'JBSWY3DPEHPK3PXP';

/** The README's PostgreSQL backup and restore, whitespace folded. */
async function readmeSection(): Promise<string> {
  const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
  const from = readme.indexOf('**Backup (PostgreSQL).**');
  return readme.slice(from, readme.indexOf('**Several instances**', from)).replace(/\s+/g, ' ');
}

/** Runs commands as an operator's shell would, stopping at the first failure. */
async function shell(commands: string[], env: { DATA_DIR: string; T: string; DATABASE_URL: string }) {
  const script = ['set -euo pipefail', ...commands].join('\n');
  await promisify(execFile)('bash', ['-c', script], { env: { ...process.env, ...env } });
}

/** Every row of every table of the schema, as JSON text in a fixed order. */
async function rowsOf(k: Kysely<Database>): Promise<Record<string, string[]>> {
  const { rows: tables } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`.execute(k);
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows: found } = await sql<{ row: string }>`
      select row_to_json(t)::text as row from ${sql.table(name)} t order by 1`.execute(k);
    rows[name] = found.map((r) => r.row);
  }
  return rows;
}

/**
 * Columns, constraints, indexes, triggers, functions, extensions and sequence positions. Casts and
 * brackets are left out: PostgreSQL spells a restored partial index's casts differently.
 */
async function schemaOf(k: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ line: string }>`
    select concat_ws(' ', 'column', table_name, column_name, data_type, is_nullable, column_default) as line
      from information_schema.columns where table_schema = current_schema()
    union all select concat_ws(' ', 'constraint', conrelid::regclass, conname, pg_get_constraintdef(oid))
      from pg_constraint where connamespace = current_schema()::regnamespace
    union all select concat_ws(' ', 'index', indexdef) from pg_indexes where schemaname = current_schema()
    union all select concat_ws(' ', 'trigger', pg_get_triggerdef(oid)) from pg_trigger where not tgisinternal
    union all select concat_ws(' ', 'function', oid::regprocedure, md5(prosrc)) from pg_proc
      where pronamespace = current_schema()::regnamespace
    union all select concat_ws(' ', 'extension', extname, extversion) from pg_extension
    union all select concat_ws(' ', 'sequence', sequencename, last_value) from pg_sequences
      where schemaname = current_schema()
    order by 1`.execute(k);
  return rows.map((row) => row.line.replace(/::[a-z ]+(\[\])?|[()]/g, ''));
}

/** The first-start data, the demo content, and a row in each table those leave empty. */
async function fillEveryTable(db: Db, dataDir: string) {
  const k = db.kysely;
  const now = new Date().toISOString();
  const storage = new DiskStorage(join(dataDir, 'files'));
  await seedBaseData(db, systemClock, ADMIN);
  await seedDemoData(db, systemClock, storage);
  const userId = async (email: string) =>
    (await k.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const admin = await userId(ADMIN.email);
  const member = await userId('vertreter.demo@example.org');
  const [file, draft] = await k.selectFrom('files').selectAll().orderBy('id').execute();
  const { id: eventId } = await k.selectFrom('events').select('id').orderBy('id').executeTakeFirstOrThrow();
  const fileId = file!.id;
  /** A row of `user_id` with a fresh token's hash, made now. */
  const owned = (user_id: number) => ({ user_id, token_hash: hashToken(newToken()), created_at: now });
  const put = <T extends keyof Database>(table: T, row: InsertObject<Database, T>) =>
    k.insertInto(table).values(row).execute();

  // Sessions, password links and requests, a mail with 0010's HTML part, the audit log.
  const session = await k
    .insertInto('sessions')
    .values({ ...owned(admin), last_seen_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const delivered = { object_kind: 'file', object_id: fileId, content_version: file!.storage_key } as const;
  await put('delivery_marks', { session_id: session.id, ...delivered, purpose: 'view', recorded_at: now });
  await put('password_tokens', { ...owned(member), purpose: 'reset', expires_at: now, used_at: null });
  await put('password_requests', { email: 'x@example.org', ip: '192.0.2.1', created_at: now, attempts: 1 });
  const mail = { subject: 'Neu', text_body: 'Satzung', html_body: '<p>Satzung</p>', calendar: null };
  const queued = { created_at: now, attempts: 0, next_attempt_at: now, list_unsubscribe: 'http://x/account' };
  await put('outbox', { to_address: ADMIN.email, ...mail, ...queued });
  await put('audit_log', { at: now, actor_id: admin, action: 'user.updated', object_id: member });

  // An old version (0005) and a Papierkorb item, made by the portal's own deletion.
  const content = Readable.from([Buffer.from('%PDF-1.4\n% Fassung 1\n%%EOF\n')]);
  const old = await storage.put(content, { maxBytes: 10_000 });
  const stored = { size_bytes: old.size, sha256: old.sha256, storage_key: old.key, restored_from: null };
  const replaced = {
    content_at: now,
    content_by_label: 'Admin',
    replaced_at: now,
    replaced_by_label: 'Admin',
  };
  const pdf = { format: 'pdf', mime_type: 'application/pdf' };
  await put('file_versions', { file_id: fileId, version: 1, ...pdf, ...stored, ...replaced });
  const deletedBy = { id: admin, label: 'Admin' };
  const entry = { title: draft!.title, formerPath: null, formerParentId: draft!.folder_id, deletedAt: now };
  await k.transaction().execute((trx) => trashFile(trx, draft!.id, { ...entry, deletedBy }));

  // The second factor (0006): the TOTP seed sealed with DATA_DIR/secret.key, as the portal does.
  const totp_secret = loadSecretBox({ DATA_DIR: dataDir }).seal(TOTP_SEED);
  await k.updateTable('users').set({ two_factor_enabled: 1, totp_secret }).where('id', '=', member).execute();
  await put('recovery_codes', { user_id: member, code_hash: hashToken(newToken()), used_at: null });
  const passkey = { credential_id: newKey(), public_key: newKey(), counter: 3, transports: '["usb"]' };
  await put('passkeys', { user_id: member, ...passkey, name: 'Stick', created_at: now, last_used_at: null });
  const challenge = { purpose: 'login', webauthn_challenge: null, expires_at: now, used_at: null } as const;
  await put('login_challenges', { ...owned(member), ...challenge });
  await put('trusted_devices', { ...owned(member), label: 'Firefox', expires_at: now });

  // Meetings (0008), as in backup-meetings.test.ts.
  const agenda = { description: 'Bericht des Vorstands', presenter: 'Vorstand' };
  const item = await k
    .insertInto('agenda_items')
    .values({ event_id: eventId, parent_id: null, position: 0, title: 'Berichte', ...agenda })
    .returning('id')
    .executeTakeFirstOrThrow();
  await put('agenda_item_files', { item_id: item.id, file_id: fileId, position: 0 });
  const answer = { status: 'zugesagt', comment: 'Komme', answered_at: now } as const;
  await put('event_attendance', { event_id: eventId, user_id: admin, ...answer });
  await put('calendar_feeds', { ...owned(admin), last_used_at: null });

  // Neu für Sie, Kenntnisnahme and notifications (0009), as in backup-news.test.ts.
  const notify = { notify_files: 'woechentlich', notify_events: 'nie' } as const;
  await k
    .updateTable('users')
    .set({ news_read_at: now, news_version: 7, ...notify })
    .where('id', '=', admin)
    .execute();
  const ask = { acknowledgement_required: 1, acknowledgement_due: '2027-01-15', acknowledgement_since: now };
  await k.updateTable('files').set(ask).where('id', '=', fileId).execute();
  await put('file_reads', { user_id: admin, file_id: fileId, read_at: now, opened_at: now });
  await put('acknowledgements', { file_id: fileId, user_id: admin, confirmed_at: now });
  await put('acknowledgement_reminders', { file_id: fileId, sent_at: now });
  const news = { kind: 'file', object_id: fileId, action: 'created', queued_at: now } as const;
  await put('notification_queue', { user_id: admin, ...news });
  const digest = { cadence: 'weekly', period: '2026-11-23', items: 3, created_at: now } as const;
  await put('notification_digests', { user_id: admin, ...digest });

  // An API-Schlüssel (0011), as in backup-api-keys.test.ts; its token is used after the restore.
  const apiToken = `${API_KEY_PREFIX}${newToken()}`;
  const key = { name: 'Import', scopes: 'nutzer:lesen', expires_at: '2099-01-01T00:00:00.000Z' };
  await put('api_keys', { ...owned(admin), token_hash: hashToken(apiToken), ...key });

  // An open upload batch (0013) with the mail it owes, as in backup-upload-batches.test.ts.
  const batch = { id: randomUUID(), created_by: admin, created_at: now, last_file_at: now };
  await put('upload_batches', { ...batch, files: 1, completed_at: null, mails: 0 });
  await put('upload_batch_notices', { batch_id: batch.id, user_id: member, file_id: fileId });

  // Gremien (0016), as in backup-committees.test.ts: the seeded Aufsichtsrat with an archived,
  // reopened Amtsperiode, an applied membership and the role it gives (also given directly).
  const { id: committeeId } = await k
    .selectFrom('committees')
    .select('id')
    .where('name', '=', 'Aufsichtsrat')
    .executeTakeFirstOrThrow();
  const period = { starts_on: '2022-07-01', ends_on: '2026-06-30', archived: 1, reopened: 1 };
  const term = await k
    .insertInto('committee_terms')
    .values({ committee_id: committeeId, ...period, folder_id: null, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const seat = { function: 'ersatzmitglied', rank: 2, district: 'Nord', reason: 'ruecktritt' } as const;
  const dates = { valid_from: '2022-07-01', valid_until: '2024-03-31', state: 'ended' } as const;
  const held = { holder_name: 'Vera Vertreterin', succeeded_by: null, created_at: now, updated_at: now };
  await put('committee_memberships', {
    committee_id: committeeId,
    term_id: term.id,
    user_id: member,
    ...seat,
    ...dates,
    ...held,
  });
  const { id: roleId } = await k
    .selectFrom('roles')
    .select('id')
    .where('name', '=', 'Aufsichtsrat')
    .executeTakeFirstOrThrow();
  await put('user_roles', { user_id: member, role_id: roleId, direct: 0, via_committee: 1 });
  await k.updateTable('users').set({ email_visible_to_committees: 1 }).where('id', '=', member).execute();

  // Beschlüsse (0017): a secret motion with its electorate, an open one's vote, a ballot, a
  // resolution of the Beschlussbuch with its counter and follow-up.
  const motionRow = {
    committee_id: committeeId,
    event_id: null,
    agenda_item_id: null,
    text: 'Der Aufsichtsrat stimmt dem Jahresabschluss zu.',
    justification: '',
    majority: 'simple',
    majority_basis: 'cast',
    quorum: 'more_than_half',
    procedure: 'umlauf',
    deadline: now,
    opened_at: now,
    closed_at: now,
    hand_ja: null,
    hand_nein: null,
    hand_enthaltung: null,
    created_by: admin,
    created_at: now,
    updated_at: now,
  } as const;
  const secret = await k
    .insertInto('motions')
    .values({ ...motionRow, title: 'Geheime Wahl', mode: 'geheim', state: 'geschlossen' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const open = await k
    .insertInto('motions')
    .values({ ...motionRow, title: 'Jahresabschluss', mode: 'namentlich', state: 'festgestellt' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await put('motion_files', { motion_id: open.id, file_id: fileId });
  await put('motion_electorate', {
    motion_id: secret.id,
    user_id: member,
    holder_name: 'Vera Vertreterin',
    function: 'mitglied',
    voted: 1,
    mailed_at: now,
  });
  await put('motion_ballots', { id: randomUUID(), motion_id: secret.id, choice: 'ja' });
  await put('motion_votes', { motion_id: open.id, user_id: member, choice: 'nein', updated_at: now });
  await put('resolution_counters', { committee_id: committeeId, term_id: term.id, last_number: 1 });
  const resolution = await k
    .insertInto('resolutions')
    .values({
      committee_id: committeeId,
      term_id: term.id,
      motion_id: open.id,
      number: 'AR 2022/01',
      sequence: 1,
      result: 'abgelehnt',
      established_at: now,
      record: '{"number":"AR 2022/01"}',
      previous_hash: null,
      hash: 'a'.repeat(64),
      corrects_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await put('resolution_follow_ups', {
    resolution_id: resolution.id,
    responsible_id: member,
    due_on: '2026-12-31',
    note: 'Bericht an die Vertreterversammlung',
    reminded_on: null,
    updated_at: now,
  });
  // Niederschriften (0018): a draft in review with a version, a remark, a reader and a signer.
  const minutes = await k
    .insertInto('minutes')
    .values({
      event_id: eventId,
      committee_id: committeeId,
      amends_id: null,
      review_until: now,
      review_audience: 'gremium',
      review_version: 1,
      frozen_storage_key: null,
      frozen_sha256: null,
      frozen_at: null,
      sealed_storage_key: null,
      sealed_sha256: null,
      sealed_size_bytes: null,
      sealed_at: null,
      filed_file_id: null,
      created_by: admin,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await put('minutes_versions', {
    minutes_id: minutes.id,
    version: 1,
    content: '{"header":{},"attendance":{},"sections":[]}',
    author_id: admin,
    saved_at: now,
  });
  await put('minutes_remarks', {
    minutes_id: minutes.id,
    version: 1,
    section_key: 'item-1',
    author_id: member,
    author_name: 'Łucja Wąsowska',
    text: 'Bitte den Betrag ergänzen.',
    created_at: now,
  });
  await put('minutes_readers', {
    minutes_id: minutes.id,
    user_id: member,
    first_opened_at: now,
    reminded_at: null,
  });
  await put('minutes_signatures', {
    minutes_id: minutes.id,
    user_id: admin,
    signer_name: 'Şahin Öztürk',
    function: 'vorsitz',
    frozen_sha256: 'b'.repeat(64),
    method: null,
    signed_at: null,
    refused_at: null,
    refusal_reason: null,
  });
  return { apiToken, fileId, memberId: member, trashedId: draft!.id };
}

describe.runIf(/^postgres(ql)?:\/\//.test(baseUrl))('backup and restore with PostgreSQL (README)', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('brings every table, the documents and the key back into a working portal', async () => {
    const section = await readmeSection();
    for (const command of [...BACKUP, ...RESTORE]) expect(section, 'README').toContain(`\`${command}\``);
    const root = await mkdtemp(join(tmpdir(), 'gremienportal-pg-backup-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const source = await createPostgresDatabase(baseUrl, 'gp_backup');
    cleanups.push(source.drop);
    const target = await createPostgresDatabase(baseUrl, 'gp_restore');
    cleanups.push(target.drop);
    const dataDir = join(root, 'data');
    const backupDir = join(root, 'sicherung');
    const restoredDir = join(root, 'neu');

    const db = openDatabase({ databaseUrl: source.url, sqliteFile: '' });
    cleanups.push(() => db.close());
    await migrateToLatest(db);
    const { apiToken, fileId, memberId, trashedId } = await fillEveryTable(db, dataDir);
    const before = await rowsOf(db.kysely);
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['api_keys', 'file_reads', 'outbox']));
    const empty = Object.keys(before).filter((table) => before[table]!.length === 0);
    expect(empty, 'Tabellen ohne Zeile: fillEveryTable ergänzen').toEqual([]);
    const schema = await schemaOf(db.kysely);

    await mkdir(backupDir);
    await shell(BACKUP, { DATA_DIR: dataDir, T: backupDir, DATABASE_URL: source.url });
    await mkdir(restoredDir, { mode: 0o700 });
    await shell(RESTORE, { DATA_DIR: restoredDir, T: backupDir, DATABASE_URL: target.url });

    const restored = openDatabase({ databaseUrl: target.url, sqliteFile: '' });
    cleanups.push(() => restored.close());
    const k = restored.kysely;
    const after = await rowsOf(k);
    expect(Object.keys(after), 'Tabellen').toEqual(Object.keys(before));
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    expect(await schemaOf(k)).toEqual(schema);
    const objects = async (dir: string) => (await storageContents(join(dir, 'files'))).objects;
    expect(await objects(restoredDir)).toEqual(await objects(dataDir));
    // Current: migrating after the restore has nothing to do.
    const provider = { getMigrations: async () => migrationsFor('postgres') };
    expect(await new Migrator({ db: k, provider }).migrateToLatest()).toEqual({ results: [] });

    // The portal on the restored database and data folder.
    const app = await buildApp({
      config: configSchema.parse({
        NODE_ENV: 'test',
        DATA_DIR: restoredDir,
        DATABASE_URL: target.url,
        INITIAL_ADMIN_EMAIL: 'neu@example.org',
        PUBLIC_URL: 'http://portal.test',
        TWO_FACTOR_REQUIRED_ROLES: '',
      }),
      logger: false,
      startBackgroundJobs: false,
      mailTransport: new MemoryTransport(),
    });
    cleanups.push(() => app.close());
    await app.ready();
    expect(app.initialAdmin, 'kein neuer erster Super-Admin').toBeUndefined();
    const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
      app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` }, payload });
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: ADMIN });
    expect(login.statusCode, login.body).toBe(200);
    const token = login.json<{ access_token: string }>().access_token;
    const file = await k.selectFrom('files').selectAll().where('id', '=', fileId).executeTakeFirstOrThrow();
    const download = await call('GET', `/download/${file.download_key}`, token);
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(file.sha256);
    expect((await call('GET', '/user', apiToken)).statusCode, 'API-Schlüssel').toBe(200);
    const member = await k
      .selectFrom('users')
      .selectAll()
      .where('id', '=', memberId)
      .executeTakeFirstOrThrow();
    expect(app.context.secrets.open(member.totp_secret!), 'TOTP-Seed lesbar').toBe(TOTP_SEED);
    // Writes: sequences and triggers came along; the Papierkorb item comes back with its content.
    const folder = await call('POST', '/folders', token, { folder_id: 1, title: 'Neu' });
    expect(folder.statusCode, folder.body).toBe(201);
    const back = await call('POST', `/trash/file/${trashedId}/restore`, token);
    expect(back.statusCode, back.body).toBe(200);
    await expectStoredConsistently('wiederhergestellt', join(restoredDir, 'files'), await storedRows(k));
  });
});
