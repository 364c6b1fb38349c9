// Over 300 lines: one fill of every stage of a Beschluss, its check for variety and the restored portal's
// next steps, for SQLite and PostgreSQL, all read one record of what was made; split files would pass it around.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Committee } from '@gremienportal/contracts/committees';
import { MOTION_MESSAGES } from '@gremienportal/contracts/resolutions';
import { DAY, TestClock } from '../../src/clock.ts';
import { SECRET_KEY_FILE } from '../../src/credentials/secret-box.ts';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { remindOverdueFollowUps } from '../../src/features/resolutions/beschlussbuch.service.ts';
import { verifyChains } from '../../src/features/resolutions/resolution-chain.ts';
import { votesJobWork } from '../../src/features/resolutions/votes-job.ts';
import { backupSqlite } from '../../src/ops/backup.ts';
import { restoreSqlite } from '../../src/ops/restore.ts';
import { createPostgresDatabase } from '../reliability/inspect.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createRoleUsers, createUser, sessionFor, type TestUser } from '../support/factories.ts';
import { uploadFile } from '../support/files.fixtures.ts';
import { createTotpUser, freshCode, type TotpUser } from '../support/two-factor.fixtures.ts';

/**
 * Beschlüsse (decision 190, migration 0017) survive a backup and its restore exactly: motions in
 * every stage with their documents, the electorate with its marks (voted, a conflict, an
 * objection, mailed and first opened), open and named votes, the ballots of secret votes, the
 * Beschlussbuch with its hash chain (a correction included), its counter, and a follow-up already
 * reminded. All of it is made through the API, as the portal makes it. The restored portal goes on
 * from there: its chain verifies, a running secret vote refuses a second ballot and takes the
 * missing ones, the deadline closes it once, the next entry continues the chain, and an overdue
 * follow-up is not reminded twice. SQLite with `backup`/`restore`; on PostgreSQL with pg_dump and
 * pg_restore as README "Backup (PostgreSQL)" says (backup-postgres.test.ts checks every table's rows
 * written directly; here the chain is made by the portal and verified after the restore).
 */

/** The tables of migration 0017, each with the columns that order its rows. */
const RESOLUTION_TABLES = {
  motions: ['id'],
  motion_files: ['motion_id', 'file_id'],
  motion_electorate: ['motion_id', 'user_id'],
  motion_votes: ['motion_id', 'user_id'],
  motion_ballots: ['id'],
  resolution_counters: ['committee_id', 'term_id'],
  resolutions: ['id'],
  resolution_follow_ups: ['id'],
} as const;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rowsOf(db: Db) {
  const tables: Record<string, unknown[]> = {};
  for (const [table, order] of Object.entries(RESOLUTION_TABLES)) {
    const { rows } = await sql<Record<string, unknown>>`
      select * from ${sql.table(table)} order by ${sql.join(order.map((column) => sql.ref(column)))}`.execute(
      db.kysely,
    );
    tables[table] = rows;
  }
  if (db.dialect === 'sqlite') {
    // The tables and indexes as created, `motion_ballots` without rowid included.
    tables.schema = (
      await sql<{ name: string; sql: string }>`
        select name, sql from sqlite_master
        where tbl_name like 'motion%' or tbl_name like 'resolution%' order by name`.execute(db.kysely)
    ).rows;
  }
  return tables;
}

interface Filled {
  admin: TestUser;
  chair: TotpUser;
  members: TestUser[];
  /** The Umlaufverfahren still running: a secret vote with two of five ballots cast. */
  running: { id: number; voted: TestUser[]; missing: TestUser[] };
  followUpId: number;
}

/** Beschlüsse in every stage, through the API, on the test app's clock (21 November 2026). */
async function fill(t: TestApp): Promise<Filled> {
  const { admin } = await createRoleUsers(t);
  const call = async (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({ method, url: `/api/v1${url}`, headers: user.headers, payload });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json().data;
  };
  const committee = ((await call(admin, 'GET', '/committees')) as Committee[]).find(
    (c) => c.kind === 'aufsichtsrat',
  )!;
  const term = (await call(admin, 'POST', `/committees/${committee.id}/terms`, {
    start: '2026-07-01',
    end: '2030-06-30',
  })) as { id: number };
  const chair = await createTotpUser(t);
  const secretary = await createUser(t);
  const members = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
  const people: [TestUser, string, string][] = [
    [chair, 'vorsitz', 'Anna Vorsitz'],
    [secretary, 'schriftfuehrung', 'Sven Schreiber'],
    [members[0]!, 'mitglied', 'Bernd Zander'],
    [members[1]!, 'mitglied', 'Änne Öztürk'],
    [members[2]!, 'mitglied', 'Carla Czerny'],
    [members[3]!, 'mitglied', 'Dieter Dorn'],
  ];
  for (const [user, fn, name] of people) {
    const [firstname, lastname] = name.split(' ');
    await t.db.kysely.updateTable('users').set({ firstname, lastname }).where('id', '=', user.id).execute();
    await call(admin, 'POST', `/committees/${committee.id}/members`, {
      term_id: term.id,
      user_id: user.id,
      function: fn,
    });
  }
  const file = await uploadFile(t, admin, {
    title: 'Jahresabschluss 2025',
    folderId: 2,
    roles: ['Aufsichtsrat'],
  });
  const motion = async (title: string, mode: string, extra: object = {}) =>
    (
      (await call(secretary, 'POST', '/motions', {
        committee_id: committee.id,
        title,
        text: `Der Aufsichtsrat beschließt: ${title}.`,
        mode,
        ...extra,
      })) as { id: number }
    ).id;
  const vote = (user: TestUser, id: number, choice: string) =>
    call(user, 'POST', `/motions/${id}/votes`, { choice });
  const establish = async (id: number) =>
    (
      (await call(chair, 'POST', `/motions/${id}/establish`, { code: await freshCode(t, chair.secret) })) as {
        id: number;
      }
    ).id;

  // Open, in the meeting, with a linked document, a changed vote and a hand count.
  const accounts = await motion('Feststellung des Jahresabschlusses', 'offen', { file_ids: [file.id] });
  await call(chair, 'POST', `/motions/${accounts}/open`, { procedure: 'sitzung' });
  await vote(members[0]!, accounts, 'nein');
  await vote(members[0]!, accounts, 'ja');
  await vote(members[1]!, accounts, 'ja');
  await vote(chair, accounts, 'enthaltung');
  await call(chair, 'POST', `/motions/${accounts}/hand-count`, { ja: 1, nein: 1, enthaltung: 0 });
  await call(chair, 'POST', `/motions/${accounts}/close`);
  const first = await establish(accounts);
  // Secret, in the meeting: ballots without voters.
  const election = await motion('Wahl des stellvertretenden Vorsitzes', 'geheim');
  await call(chair, 'POST', `/motions/${election}/open`, { procedure: 'sitzung' });
  for (const [user, choice] of [
    [chair, 'ja'],
    [members[0]!, 'ja'],
    [members[1]!, 'nein'],
    [members[2]!, 'enthaltung'],
    [secretary, 'ja'],
  ] as const) {
    await vote(user, election, choice);
  }
  await call(chair, 'POST', `/motions/${election}/close`);
  await establish(election);
  // Named, with a declared conflict of interest.
  const contract = await motion('Vertrag mit der Prüfungsgesellschaft', 'namentlich');
  await call(chair, 'POST', `/motions/${contract}/open`, { procedure: 'sitzung' });
  await call(members[3]!, 'POST', `/motions/${contract}/conflict`, {});
  for (const user of [chair, secretary, members[0]!, members[1]!, members[2]!])
    await vote(user, contract, 'ja');
  await call(chair, 'POST', `/motions/${contract}/close`);
  await establish(contract);
  // An Umlaufverfahren ended by an objection: mailed, first opened, objected.
  const deadline = new Date(t.clock.now().getTime() + 7 * DAY).toISOString();
  const circular = await motion('Spende an den Sportverein', 'offen');
  await call(chair, 'POST', `/motions/${circular}/open`, { procedure: 'umlauf', deadline });
  await call(members[2]!, 'GET', `/motions/${circular}`);
  await vote(members[1]!, circular, 'ja');
  await call(members[2]!, 'POST', `/motions/${circular}/objection`, {
    reason: 'Bitte in der Sitzung beraten.',
  });
  await establish(circular);
  // A correction of the first entry, and its follow-up, overdue and reminded today.
  await call(chair, 'POST', `/resolutions/${first}/correction`, {
    text: 'Der Aufsichtsrat stellt den Jahresabschluss 2025 in der geprüften Fassung fest.',
    reason: 'Fassung des Beschlusstextes',
  });
  await call(secretary, 'PUT', `/resolutions/${first}/follow-up`, {
    responsible_id: members[0]!.id,
    due_on: '2026-11-20',
    status: 'offen',
    note: 'Bekanntmachung im Bundesanzeiger',
  });
  expect(await remindOverdueFollowUps(t.app.context)).toBe(1);
  // A secret Umlaufverfahren still running: two ballots cast, the others missing.
  const running = await motion('Wahl des Wahlvorstands', 'geheim');
  await call(chair, 'POST', `/motions/${running}/open`, { procedure: 'umlauf', deadline });
  await vote(members[0]!, running, 'ja');
  await vote(members[3]!, running, 'nein');
  // And a draft.
  await motion('Satzungsänderung', 'offen', { file_ids: [file.id], justification: 'Anpassung an das GenG.' });
  const followUp = await t.db.kysely
    .selectFrom('resolution_follow_ups')
    .select('id')
    .executeTakeFirstOrThrow();
  return {
    admin,
    chair,
    members,
    running: {
      id: running,
      voted: [members[0]!, members[3]!],
      missing: [chair, secretary, members[1]!, members[2]!],
    },
    followUpId: followUp.id,
  };
}

/** The data is as varied as the columns allow, so "the same afterwards" says something. */
function expectVaried(before: Record<string, unknown[]>) {
  const column = (table: string, name: string) =>
    (before[table] as Record<string, unknown>[]).map((row) => row[name]);
  expect(new Set(column('motions', 'state'))).toEqual(new Set(['festgestellt', 'abstimmung', 'entwurf']));
  expect(new Set(column('motions', 'mode'))).toEqual(new Set(['offen', 'geheim', 'namentlich']));
  expect(column('motions', 'hand_ja')).toContain(1);
  expect(new Set(column('resolutions', 'result'))).toEqual(new Set(['angenommen', 'widersprochen']));
  expect(column('resolutions', 'corrects_id').filter((id) => id !== null)).toHaveLength(1);
  expect(column('resolutions', 'previous_hash').filter((hash) => hash === null)).toHaveLength(1);
  expect(column('motion_ballots', 'id')).toHaveLength(7);
  expect(column('motion_electorate', 'conflicted')).toContain(1);
  for (const mark of ['objected_at', 'objection_reason', 'mailed_at', 'first_opened_at']) {
    expect(
      column('motion_electorate', mark).some((value) => value !== null),
      mark,
    ).toBe(true);
  }
  expect(column('resolution_counters', 'last_number')).toEqual([5]);
  expect(column('resolution_follow_ups', 'reminded_on')).toEqual(['2026-11-21']);
  expect(column('motion_files', 'file_id')).toHaveLength(2);
}

/**
 * The restored portal goes on: the chain verifies; in the running secret vote a member who voted
 * is refused, the missing ones vote; the deadline closes it once; its entry continues the chain;
 * the follow-up reminded today is not reminded again.
 */
async function goesOn(restored: TestApp, filled: Filled, before: Record<string, unknown[]>) {
  expect(await verifyChains(restored.db)).toEqual({ ok: true, count: 5 });
  const call = (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
    restored.app.inject({ method, url: `/api/v1${url}`, headers: user.headers, payload });
  const { id, voted, missing } = filled.running;
  const again = await call(voted[0]!, 'POST', `/motions/${id}/votes`, { choice: 'nein' });
  expect(again.statusCode, again.body).toBe(409);
  expect(again.json().message).toBe(MOTION_MESSAGES.alreadyVotedSecret);
  for (const user of missing) {
    const res = await call(user, 'POST', `/motions/${id}/votes`, { choice: 'ja' });
    expect(res.statusCode, res.body).toBe(200);
  }
  expect(await remindOverdueFollowUps(restored.app.context)).toBe(0);
  restored.clock.advance(8 * DAY);
  expect((await votesJobWork(restored.app.context)).closed).toBe(1);
  expect((await votesJobWork(restored.app.context)).closed).toBe(0);
  // A week later the sessions have run out: the Vorsitz signs in again.
  const chair = {
    ...filled.chair,
    headers: { authorization: `Bearer ${await sessionFor(restored, filled.chair.id)}` },
  };
  const closed = await call(chair, 'GET', `/motions/${id}`);
  expect(closed.json().data).toMatchObject({
    state: 'geschlossen',
    counts: { ja: 5, nein: 1, enthaltung: 0 },
  });
  const code = await freshCode(restored, filled.chair.secret);
  const established = await call(chair, 'POST', `/motions/${id}/establish`, { code });
  expect(established.statusCode, established.body).toBe(200);
  const last = (before.resolutions as { hash: string; number: string }[]).at(-1)!;
  expect(established.json().data).toMatchObject({ number: 'AR 2026/06', previous_hash: last.hash });
  expect(await verifyChains(restored.db)).toEqual({ ok: true, count: 6 });
}

describe('backup and restore of Beschlüsse', () => {
  it('keeps motions, votes, ballots and the Beschlussbuch, whose chain still verifies (SQLite)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'gremienportal-resolutions-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    // SQLite also where the suite runs on PostgreSQL: this is the SQLite backup.
    const t = await buildTestApp({ env: { DATABASE_URL: '' } });
    cleanups.push(() => t.close());
    const filled = await fill(t);
    const before = await rowsOf(t.db);
    expectVaried(before);
    expect(await verifyChains(t.db)).toEqual({ ok: true, count: 5 });

    const backup = join(root, 'sicherung');
    const manifest = await backupSqlite({ dataDir: t.dataDir, target: backup });
    for (const table of Object.keys(RESOLUTION_TABLES))
      expect(manifest.row_counts[table], table).toBe(before[table]!.length);
    const restoredDir = join(root, 'neu');
    await mkdir(restoredDir);
    await restoreSqlite({ source: backup, dataDir: restoredDir });
    const db = openDatabase({ sqliteFile: join(restoredDir, 'portal.sqlite') });
    const clock = new TestClock(t.clock.now());
    const restored = await buildTestApp({ env: { DATABASE_URL: '', DATA_DIR: restoredDir }, db, clock });
    cleanups.push(() => restored.close());
    expect(await rowsOf(restored.db)).toEqual(before);
    await goesOn(restored, filled, before);
  });

  const baseUrl = process.env.TEST_DATABASE_URL ?? '';
  it.runIf(/^postgres(ql)?:\/\//.test(baseUrl))(
    'keeps them with pg_dump and pg_restore, and the chain still verifies (PostgreSQL)',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'gremienportal-resolutions-pg-'));
      cleanups.push(() => rm(root, { recursive: true, force: true }));
      const t = await buildTestApp();
      cleanups.push(() => t.close());
      expect(t.db.dialect).toBe('postgres');
      const filled = await fill(t);
      const before = await rowsOf(t.db);
      expectVaried(before);

      // README "Backup (PostgreSQL)" / "Restore (PostgreSQL)": the dump, the key beside it.
      const dump = join(root, 'portal.dump');
      await promisify(execFile)('pg_dump', ['-Fc', '-f', dump, t.config.DATABASE_URL!]);
      const target = await createPostgresDatabase(baseUrl, 'gp_restore');
      cleanups.push(target.drop);
      await promisify(execFile)('pg_restore', ['--clean', '--if-exists', '-d', target.url, dump]);
      const restoredDir = join(root, 'neu');
      await mkdir(restoredDir, { mode: 0o700 });
      await copyFile(join(t.dataDir, SECRET_KEY_FILE), join(restoredDir, SECRET_KEY_FILE));
      const db = openDatabase({ databaseUrl: target.url, sqliteFile: '' });
      const clock = new TestClock(t.clock.now());
      const restored = await buildTestApp({
        env: { DATABASE_URL: target.url, DATA_DIR: restoredDir },
        db,
        clock,
      });
      cleanups.push(() => restored.close());
      expect(await rowsOf(restored.db)).toEqual(before);
      await goesOn(restored, filled, before);
    },
  );
});
