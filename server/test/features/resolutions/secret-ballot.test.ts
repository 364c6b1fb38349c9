import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Committee } from '@gremienportal/contracts/committees';
import { configSchema } from '../../../src/config.ts';
import { loggerOptions } from '../../../src/plugins/logging.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, type TestUser } from '../../support/factories.ts';

/**
 * A geheim vote over HTTP (decision 190): after it, no log line, no answer of the API (the motion
 * for voters and admins, the audit list and its CSV) and no stored row puts a voter beside a
 * choice; the ballots lie in the order of their random ids, not of their arrival.
 */
describe('a secret vote stays secret', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let chair: TestUser;
  const voters: TestUser[] = [];
  const logLines: string[] = [];
  let motionId: number;
  const CHOICE = /\b(ja|nein|enthaltung)\b/i;
  const call = (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: user.headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    const config = configSchema.parse({
      NODE_ENV: 'test',
      DATA_DIR: '/tmp',
      INITIAL_ADMIN_EMAIL: 'admin@example.org',
      INITIAL_ADMIN_PASSWORD: 'Start-Passwort-123',
      PUBLIC_URL: 'http://portal.test',
    });
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    t = await buildTestApp({
      logger: pino({ ...(loggerOptions(config) as pino.LoggerOptions), level: 'trace' }, sink),
    });
    users = await createRoleUsers(t);
    const ar = ((await call(users.admin, 'GET', '/committees')).json().data as Committee[]).find(
      (c) => c.kind === 'aufsichtsrat',
    )!;
    const term = await call(users.admin, 'POST', `/committees/${ar.id}/terms`, {
      start: '2026-07-01',
      end: '2030-06-30',
    });
    chair = await createUser(t, { lastname: 'Vorsitz' });
    for (let i = 0; i < 6; i += 1) voters.push(await createUser(t, { lastname: `Wähler${i}` }));
    for (const [user, fn] of [[chair, 'vorsitz'], ...voters.map((v) => [v, 'mitglied'])] as [
      TestUser,
      string,
    ][]) {
      const res = await call(users.admin, 'POST', `/committees/${ar.id}/members`, {
        term_id: term.json().data.id,
        user_id: user.id,
        function: fn,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const created = await call(chair, 'POST', '/motions', {
      committee_id: ar.id,
      title: 'Wahl des stellvertretenden Vorsitzes',
      text: 'Der Aufsichtsrat wählt Frau Muster zur stellvertretenden Vorsitzenden.',
      mode: 'geheim',
    });
    expect(created.statusCode, created.body).toBe(201);
    motionId = created.json().data.id;
    expect(
      (await call(chair, 'POST', `/motions/${motionId}/open`, { procedure: 'sitzung' })).statusCode,
    ).toBe(200);
  });
  afterAll(() => t?.close());

  it('leaves no trace of who voted how', async () => {
    const choices = ['ja', 'nein', 'ja', 'enthaltung', 'nein', 'ja'] as const;
    const linesBefore = logLines.length;
    for (const [index, voter] of voters.entries()) {
      const res = await call(voter, 'POST', `/motions/${motionId}/votes`, { choice: choices[index] });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.own).toMatchObject({ voted: true, choice: null });
      expect(res.json().data.counts).toBeNull();
      const again = await call(voter, 'POST', `/motions/${motionId}/votes`, { choice: 'ja' });
      expect(again.statusCode).toBe(409);
    }
    const during = (await call(chair, 'GET', `/motions/${motionId}`)).json().data;
    expect(during.counts).toBeNull();
    expect(JSON.stringify(during.electorate)).not.toMatch(CHOICE);

    const closed = await call(chair, 'POST', `/motions/${motionId}/close`);
    expect(closed.json().data.counts).toEqual({ ja: 3, nein: 2, enthaltung: 1 });
    expect(closed.json().data.names).toBeNull();

    // Log lines of the voting: requests, nothing of their bodies.
    const voting = logLines.slice(linesBefore);
    expect(voting.length).toBeGreaterThan(0);
    for (const line of voting) expect(line, line).not.toMatch(/"choice"|\b(nein|enthaltung)\b/i);

    // Answers: the motion for each voter and the admin, the audit list and its CSV.
    for (const viewer of [users.admin, chair, ...voters]) {
      const motion = (await call(viewer, 'GET', `/motions/${motionId}`)).json().data;
      expect(motion.own.choice).toBeNull();
      expect(motion.names).toBeNull();
      expect(JSON.stringify({ ...motion, counts: null, text: '', title: '' })).not.toMatch(
        /"(nein|enthaltung)"/,
      );
    }
    const audit = await call(users.admin, 'GET', '/audit?per_page=100');
    expect(audit.statusCode, audit.body).toBe(200);
    const entries = (audit.json().data as { object_type: string | null; object_id: number | null }[]).filter(
      (e) => e.object_type === 'motion' && e.object_id === motionId,
    );
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(JSON.stringify(entry)).not.toMatch(/"(ja|nein|enthaltung)"/);
    const csv = await call(users.admin, 'GET', '/audit.csv');
    for (const line of csv.body.split('\n').filter((l) => l.includes('Wahl des stellvertretenden'))) {
      expect(line).not.toMatch(/\b(nein|enthaltung)\b/i);
    }

    // Storage: ballots without voter or time, in the order of their random ids.
    const ballots = await t.db.kysely
      .selectFrom('motion_ballots')
      .selectAll()
      .where('motion_id', '=', motionId)
      .execute();
    expect(ballots).toHaveLength(6);
    for (const ballot of ballots) expect(Object.keys(ballot).sort()).toEqual(['choice', 'id', 'motion_id']);
    if (t.db.dialect === 'sqlite') {
      const stored = ballots.map((b) => b.id);
      expect(stored).toEqual([...stored].sort());
    }
  });
});
