import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  LOGIN_ACCOUNT_THROTTLED_MESSAGE,
  LOGIN_BUSY_MESSAGE,
  LOGIN_CLIENT_CONCURRENT_MESSAGE,
  LOGIN_CLIENT_THROTTLED_MESSAGE,
  LOGIN_FAILED_MESSAGE,
} from '@gremienportal/contracts/auth';
import { formatBerlinDateTime } from '@gremienportal/contracts/audit';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, TEST_PASSWORD } from '../../support/factories.ts';
import { parseCsv } from '../../support/csv.ts';
import { HOUR, MINUTE } from '../../../src/clock.ts';
import { passwordQueue } from '../../../src/credentials/passwords.ts';

function login(t: TestApp, email: string, password: string, remoteAddress: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress,
  });
}

const failedEntries = (t: TestApp, ip: string) =>
  t.db.kysely
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', 'auth.login_failed')
    .where('ip', '=', ip)
    .orderBy('id')
    .execute();

/** Decision 117: limits per client and per account, a bounded hashing queue, aggregated audit. */
describe('sign-in limits beyond one address and client', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Low limits keep the test quick; the defaults (30 and 100) are checked in config.test.ts.
    t = await buildTestApp({
      env: { LOGIN_MAX_FAILURES_PER_CLIENT: '10', LOGIN_MAX_FAILURES_PER_ACCOUNT: '8' },
    });
  });
  afterAll(() => t.close());

  it('refuses a flood of made-up addresses from one client, while another client signs in within a second', async () => {
    const member = await createUser(t);
    // Each password check's duration, to scale the one-second budget below to this machine.
    const checks: number[] = [];
    const run = passwordQueue.run.bind(passwordQueue);
    const spy = vi.spyOn(passwordQueue, 'run').mockImplementation((priority, work) =>
      run(priority, async () => {
        const began = performance.now();
        try {
          return await work();
        } finally {
          checks.push(performance.now() - began);
        }
      }),
    );
    // The queue is the process's own, and a worker's files share it (decision 138).
    onTestFinished(() => spy.mockRestore());
    const flood = Array.from({ length: 200 }, (_, i) =>
      login(t, `erfunden-${i}@example.org`, 'Falsches-Passwort-1', '10.20.0.1'),
    );
    const started = performance.now();
    const legitimate = await login(t, member.email, TEST_PASSWORD, '10.20.0.2');
    const took = performance.now() - started;
    const answers = await Promise.all(flood);

    expect(legitimate.statusCode).toBe(200);
    // The other client waits for at most the flood's ten concurrent checks and its own. On an idle
    // machine a check takes 10-30 ms and the budget is one second; when other test files take
    // the cores, the hashing threads (lowest priority, decision 139) run slower and the budget
    // grows with the slowest check seen (twenty checks' worth), never below one second.
    expect(checks.length).toBeGreaterThanOrEqual(11);
    expect(took).toBeLessThan(Math.max(1_000, 20 * Math.max(...checks)));
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(190);
    for (const refused of answers.filter((res) => res.statusCode === 429)) {
      expect([LOGIN_CLIENT_THROTTLED_MESSAGE, LOGIN_CLIENT_CONCURRENT_MESSAGE]).toContain(
        refused.json().message,
      );
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }

    // Once the failures are in, even the right password of a real account waits 10 minutes.
    const refused = await login(t, member.email, TEST_PASSWORD, '10.20.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: LOGIN_CLIENT_THROTTLED_MESSAGE });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(9 * 60);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    t.clock.advance(9 * MINUTE);
    expect((await login(t, member.email, TEST_PASSWORD, '10.20.0.1')).statusCode).toBe(429);
    t.clock.advance(MINUTE);
    expect((await login(t, member.email, TEST_PASSWORD, '10.20.0.1')).statusCode).toBe(200);
  });

  it('counts only failures per client: members signing in behind one address do not lock each other out', async () => {
    const members = await Promise.all(Array.from({ length: 15 }, () => createUser(t)));
    for (const member of members) {
      expect((await login(t, member.email, TEST_PASSWORD, '10.21.0.1')).statusCode).toBe(200);
    }
    // At the same moment, though, no more than the limit are checked; the rest retry in seconds.
    const together = await Promise.all(members.map((m) => login(t, m.email, TEST_PASSWORD, '10.21.0.1')));
    expect(together.filter((res) => res.statusCode === 200)).toHaveLength(10);
    const wait = together.filter((res) => res.statusCode === 429);
    expect(wait).toHaveLength(5);
    expect(wait[0]!.json()).toEqual({ message: LOGIN_CLIENT_CONCURRENT_MESSAGE });
    expect(Number(wait[0]!.headers['retry-after'])).toBeLessThanOrEqual(2);
    t.clock.advance(2_000);
    for (const member of members) {
      expect((await login(t, member.email, TEST_PASSWORD, '10.21.0.1')).statusCode).toBe(200);
    }
    for (let i = 0; i < 10; i += 1) {
      expect((await login(t, members[i]!.email, 'Vertippt-123', '10.21.0.1')).statusCode).toBe(401);
    }
    const blocked = await login(t, members[10]!.email, TEST_PASSWORD, '10.21.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: LOGIN_CLIENT_THROTTLED_MESSAGE });
  });

  it('limits failures per account from all clients together, for known and unknown addresses alike', async () => {
    const target = await createUser(t);
    const bystander = await createUser(t);
    const unknown = 'niemand-bekannt@example.org';
    for (let i = 0; i < 8; i += 1) {
      expect((await login(t, target.email, `Rate-${i}-Passwort`, `10.22.1.${i}`)).statusCode).toBe(401);
      expect((await login(t, unknown, `Rate-${i}-Passwort`, `10.22.2.${i}`)).statusCode).toBe(401);
    }
    const blocked = await login(t, target.email, TEST_PASSWORD, '10.22.3.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: LOGIN_ACCOUNT_THROTTLED_MESSAGE });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(HOUR / 1000 - 60);
    const blockedUnknown = await login(t, unknown, 'Noch-ein-Versuch-1', '10.22.3.1');
    expect(blockedUnknown.statusCode).toBe(429);
    expect(blockedUnknown.body).toBe(blocked.body);

    // Other accounts and the clients themselves are not affected.
    expect((await login(t, bystander.email, TEST_PASSWORD, '10.22.1.0')).statusCode).toBe(200);

    t.clock.advance(HOUR);
    expect((await login(t, target.email, TEST_PASSWORD, '10.22.3.1')).statusCode).toBe(200);
  });

  it('answers 429 with Retry-After at once when the password checks ahead would take seconds', async () => {
    const member = await createUser(t);
    let release!: () => void;
    const blocker = new Promise<void>((resolve) => (release = resolve));
    // Reset and invitation work, which goes first: enough for well over two seconds.
    const queued: Promise<void>[] = [];
    while (passwordQueue.estimatedWaitMs('sign-in') < 3_000) {
      // Each reports the average as its duration, so the estimate stays as it was for later tests.
      queued.push(
        passwordQueue.run('account', () =>
          blocker.then(() => ({ value: undefined, ms: passwordQueue.averageMs })),
        ),
      );
    }
    try {
      const started = performance.now();
      const busy = await login(t, member.email, TEST_PASSWORD, '10.23.0.1');
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(busy.statusCode).toBe(429);
      expect(busy.json()).toEqual({ message: LOGIN_BUSY_MESSAGE });
      expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(2);
    } finally {
      release();
      await Promise.all(queued);
    }
    // A refused sign-in was never checked, so it counts against no limit.
    for (let i = 0; i < 4; i += 1) {
      expect((await login(t, member.email, 'Falsch-Passwort-9', '10.23.0.1')).statusCode).toBe(401);
    }
    expect((await login(t, member.email, TEST_PASSWORD, '10.23.0.1')).statusCode).toBe(200);
  });

  it('records the failures of one client within a minute in one entry per account, with a count', async () => {
    const member = await createUser(t);
    const ip = '10.24.0.1';
    for (let i = 0; i < 4; i += 1) {
      expect((await login(t, `unbekannt-${i}@example.org`, 'Falsches-Passwort-1', ip)).statusCode).toBe(401);
      t.clock.advance(5_000);
    }
    expect((await login(t, 'unbekannt-0@example.org', 'Falsches-Passwort-1', ip)).statusCode).toBe(401);
    for (let i = 0; i < 3; i += 1) {
      expect((await login(t, member.email, 'Falsches-Passwort-1', ip)).statusCode).toBe(401);
    }

    const entries = await failedEntries(t, ip);
    expect(entries).toHaveLength(2);
    const [unknown, known] = entries as [(typeof entries)[0], (typeof entries)[0]];
    expect(unknown).toMatchObject({
      object_id: null,
      object_label: 'unbekannt-0@example.org',
      actor_id: null,
    });
    expect(JSON.parse(unknown.details!)).toEqual({
      count: 5,
      last_at: t.clock.now().toISOString(),
      emails: [0, 1, 2, 3].map((i) => `unbekannt-${i}@example.org`),
    });
    expect(known).toMatchObject({ object_id: member.id, object_label: member.email });
    expect(JSON.parse(known.details!)).toMatchObject({ count: 3 });
    expect(JSON.stringify(entries)).not.toContain('Falsches-Passwort-1');

    // Shown with the count on the audit page, in the CSV and under the member's own sign-ins.
    const admin = await createUser(t, { roles: ['Admin'] });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audit?action=auth.login_failed&per_page=100',
      headers: admin.headers,
    });
    const shown = list.json().data.find((entry: { id: number }) => entry.id === unknown.id);
    expect(shown.action_label).toBe('Anmeldung fehlgeschlagen (5×)');
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audit.csv?action=auth.login_failed',
      headers: admin.headers,
    });
    const row = parseCsv(csv.body.replace(/^\uFEFF/, ''), ';').find(
      (cells) => cells[5] === 'unbekannt-0@example.org',
    );
    expect(row).toEqual([
      expect.any(String),
      '',
      'Anmeldung fehlgeschlagen (5×)',
      'Nutzer',
      '',
      'unbekannt-0@example.org',
      `Anzahl: 5; Letzter Versuch: ${formatBerlinDateTime(t.clock.now().toISOString())}; E-Mail-Adressen: ` +
        'unbekannt-0@example.org, unbekannt-1@example.org, unbekannt-2@example.org, unbekannt-3@example.org',
      '10.24.0.1',
    ]);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audit/my-logins',
      headers: member.headers,
    });
    expect(mine.json().data[0]).toMatchObject({ action_label: 'Anmeldung fehlgeschlagen (3×)', ip });

    // A minute later a new entry begins.
    t.clock.advance(MINUTE);
    expect((await login(t, member.email, 'Falsches-Passwort-1', ip)).statusCode).toBe(401);
    const later = await failedEntries(t, ip);
    expect(later).toHaveLength(3);
    expect(later[2]).toMatchObject({ object_id: member.id, details: null });
    expect((await login(t, member.email, 'x-Falsch-x', '10.24.0.2')).json()).toEqual({
      message: LOGIN_FAILED_MESSAGE,
    });
  });
});
