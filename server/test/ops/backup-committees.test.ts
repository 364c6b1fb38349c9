import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Committee, Membership, Term } from '@gremienportal/contracts/committees';
import { TestClock } from '../../src/clock.ts';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { backupSqlite } from '../../src/ops/backup.ts';
import { restoreSqlite } from '../../src/ops/restore.ts';
import { buildTestApp } from '../support/build-test-app.ts';
import { createRoleUsers, createUser, sessionFor, type TestUser } from '../support/factories.ts';

/**
 * Gremien, Amtsperioden and Mitgliedschaften (decision 189, migration 0016) survive a backup and its
 * restore exactly: the Gremien with their rules, an archived and reopened Amtsperiode, memberships in
 * every applied state (also one whose account was deleted, and one that was succeeded), the roles'
 * sources (`user_roles.direct` / `via_committee`) and the members' choice to show their address. The
 * restored portal goes on from there: its membership run finds nothing to do again, and the next
 * midnight applies what is due, once. Always SQLite: PostgreSQL is backed up with pg_dump
 * (backup-postgres.test.ts fills these tables too).
 */

const COMMITTEE_TABLES = ['committees', 'committee_terms', 'committee_memberships'] as const;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function rowsOf(db: Db) {
  const k = db.kysely;
  const tables: Record<string, unknown[]> = {};
  for (const table of COMMITTEE_TABLES) {
    tables[table] = await k.selectFrom(table).selectAll().orderBy('id').execute();
  }
  tables.user_roles = await k
    .selectFrom('user_roles')
    .selectAll()
    .orderBy('user_id')
    .orderBy('role_id')
    .execute();
  tables.roles = await k.selectFrom('roles').selectAll().orderBy('id').execute();
  tables.users = await k
    .selectFrom('users')
    .select(['id', 'email_visible_to_committees'])
    .orderBy('id')
    .execute();
  // The Amtsperioden raise the tree's counter ("Archiv" in the tree): their triggers come along.
  tables.triggers = (
    await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'committee_terms' order by name`.execute(
      k,
    )
  ).rows;
  tables.indexes = (
    await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'index' and tbl_name like 'committee%' order by name`.execute(
      k,
    )
  ).rows;
  return tables;
}

describe('backup and restore of Gremien', () => {
  it('keeps Gremien, Amtsperioden, memberships and where each role comes from', async () => {
    const root = await mkdtemp(join(tmpdir(), 'gremienportal-committees-'));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    // SQLite also where the suite runs on PostgreSQL: this is the SQLite backup.
    const t = await buildTestApp({ env: { DATABASE_URL: '' } });
    cleanups.push(() => t.close());
    const { admin, superAdmin } = await createRoleUsers(t);
    const call = async (
      user: TestUser,
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      payload?: object,
    ) => {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, headers: user.headers, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res.json().data;
    };
    const seeded = ((await call(admin, 'GET', '/committees')) as Committee[]).find(
      (c) => c.name === 'Aufsichtsrat',
    )!;
    // Ersatzmitglieder see the papers of this one: their membership gives its role.
    const audit = (await call(admin, 'POST', '/committees', {
      name: 'Prüfungsausschuss',
      kind: 'ausschuss',
      rules: { substitutes_see_papers: true, quorum: 'two_thirds', notice_days: 7 },
    })) as Committee;
    const past = (await call(admin, 'POST', `/committees/${seeded.id}/terms`, {
      start: '2022-07-01',
      end: '2026-06-30',
    })) as Term;
    const current = (await call(admin, 'POST', `/committees/${seeded.id}/terms`, {
      start: '2026-07-01',
      end: '2030-06-30',
    })) as Term;
    const auditTerm = (await call(admin, 'POST', `/committees/${audit.id}/terms`, {
      start: '2026-01-01',
      end: '2029-12-31',
    })) as Term;
    const enrol = (user: TestUser, committeeId: number, termId: number, body: object) =>
      call(admin, 'POST', `/committees/${committeeId}/members`, {
        term_id: termId,
        user_id: user.id,
        ...body,
      }) as Promise<Membership>;

    const former = await createUser(t, { lastname: 'Früher' });
    const chair = await createUser(t, { lastname: 'Vorsitz' });
    const leaving = await createUser(t, { lastname: 'Rücktritt' });
    const substitute = await createUser(t, { lastname: 'Ersatz' });
    const both = await createUser(t, { lastname: 'Beides', roles: ['Aufsichtsrat'] });
    const later = await createUser(t, { lastname: 'Später' });
    const deleted = await createUser(t, { lastname: 'Gelöscht' });
    const auditor = await createUser(t, { lastname: 'Prüferin', roles: ['Vertreter'] });
    await enrol(former, seeded.id, past.id, { function: 'mitglied' });
    await enrol(chair, seeded.id, current.id, { function: 'vorsitz', district: 'Nord' });
    const resigned = await enrol(leaving, seeded.id, current.id, { function: 'mitglied' });
    await enrol(substitute, seeded.id, current.id, { function: 'ersatzmitglied', rank: 1 });
    await enrol(both, seeded.id, current.id, { function: 'schriftfuehrung' });
    await enrol(later, seeded.id, current.id, { function: 'mitglied', from: '2027-01-01' });
    await enrol(deleted, seeded.id, current.id, { function: 'mitglied' });
    await enrol(auditor, audit.id, auditTerm.id, { function: 'ersatzmitglied', rank: 2, district: 'Süd' });
    // Rücktritt on 21 November, the Ersatzmitglied moves up from the 22nd; an account is deleted.
    await call(admin, 'PUT', `/memberships/${resigned.id}`, {
      function: 'mitglied',
      from: resigned.from,
      until: '2026-11-21',
      reason: 'ruecktritt',
    });
    await call(admin, 'POST', `/memberships/${resigned.id}/successor`);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/user/${deleted.id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(204);
    // The past term is archived by the run, and a Super-Admin reopens it for a correction.
    await t.app.memberships.run();
    await call(superAdmin, 'PUT', `/terms/${past.id}`, { start: past.start, end: past.end, archived: false });
    const own = await sessionFor(t, chair.id);
    const shown = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/account',
      headers: { authorization: `Bearer ${own}` },
      payload: { email_visible_to_committees: true },
    });
    expect(shown.statusCode, shown.body).toBe(200);

    const before = await rowsOf(t.db);
    // The data is as varied as the columns allow, so "the same afterwards" says something.
    const memberships = before.committee_memberships as {
      state: string;
      user_id: number | null;
      succeeded_by: number | null;
    }[];
    expect(new Set(memberships.map((m) => m.state))).toEqual(new Set(['pending', 'active', 'ended']));
    expect(
      memberships.some((m) => m.user_id === null),
      'Mitgliedschaft eines gelöschten Kontos',
    ).toBe(true);
    expect(
      memberships.some((m) => m.succeeded_by !== null),
      'Nachrücken',
    ).toBe(true);
    const sources = (before.user_roles as { direct: number; via_committee: number }[]).map(
      (row) => `${row.direct}${row.via_committee}`,
    );
    expect(new Set(sources)).toEqual(new Set(['10', '01', '11']));
    expect(before.committee_terms).toContainEqual(
      expect.objectContaining({ id: past.id, archived: 1, reopened: 1 }),
    );
    expect(before.users).toContainEqual({ id: chair.id, email_visible_to_committees: 1 });
    expect(before.triggers).toHaveLength(3);
    const mailsBefore = await t.db.kysely.selectFrom('outbox').select('id').execute();

    const backup = join(root, 'sicherung');
    const manifest = await backupSqlite({ dataDir: t.dataDir, target: backup });
    for (const table of COMMITTEE_TABLES)
      expect(manifest.row_counts[table], table).toBe(before[table]!.length);
    expect(manifest.row_counts.user_roles).toBe(before.user_roles!.length);

    const restoredDir = join(root, 'neu');
    await mkdir(restoredDir);
    await restoreSqlite({ source: backup, dataDir: restoredDir });
    const db = openDatabase({ sqliteFile: join(restoredDir, 'portal.sqlite') });
    const clock = new TestClock(t.clock.now());
    const restored = await buildTestApp({ env: { DATABASE_URL: '', DATA_DIR: restoredDir }, db, clock });
    cleanups.push(() => restored.close());
    expect(await rowsOf(restored.db)).toEqual(before);

    // Nothing is applied twice: the run of the restored portal has nothing to do, and sends nothing.
    expect(await restored.app.memberships.run()).toBe(0);
    expect(await restored.db.kysely.selectFrom('outbox').select('id').execute()).toEqual(mailsBefore);
    expect(await rowsOf(restored.db)).toEqual(before);
    // Midnight in Berlin: the Rücktritt ends and the Ersatzmitglied's part as such (no mail for that),
    // its membership as Mitglied starts; once, however often the run goes.
    clock.set(new Date('2026-11-21T23:00:00.000Z'));
    expect(await restored.app.memberships.run()).toBe(3);
    expect(await restored.app.memberships.run()).toBe(0);
    const known = new Set(mailsBefore.map((row) => row.id));
    const queued = await restored.db.kysely
      .selectFrom('outbox')
      .select(['id', 'to_address', 'subject'])
      .execute();
    expect(
      queued
        .filter((mail) => !known.has(mail.id))
        .map((mail) => `${mail.to_address}: ${mail.subject}`)
        .sort(),
    ).toEqual(
      [
        `${leaving.email}: Ihre Mitgliedschaft im Gremium „Aufsichtsrat“ hat am 21.11.2026 geendet`,
        `${substitute.email}: Ihre Mitgliedschaft im Gremium „Aufsichtsrat“ beginnt am 22.11.2026`,
      ].sort(),
    );
    const roleRows = await restored.db.kysely
      .selectFrom('user_roles')
      .select(['user_id', 'direct', 'via_committee'])
      .where('user_id', 'in', [leaving.id, substitute.id])
      .execute();
    expect(roleRows).toEqual([{ user_id: substitute.id, direct: 0, via_committee: 1 }]);
    // A change to an Amtsperiode still raises the tree's counter in the restored database.
    const counter = () =>
      restored.db.kysely
        .selectFrom('change_counters')
        .select('value')
        .where('name', '=', 'tree')
        .executeTakeFirstOrThrow();
    const { value } = await counter();
    await restored.db.kysely
      .updateTable('committee_terms')
      .set({ reopened: 0 })
      .where('id', '=', past.id)
      .execute();
    expect(Number((await counter()).value)).toBe(Number(value) + 1);
  });
});
