import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LOGIN_ACCOUNT_THROTTLED_MESSAGE,
  LOGIN_CLIENT_THROTTLED_MESSAGE,
} from '@gremienportal/contracts/auth';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, TEST_PASSWORD } from '../../support/factories.ts';
import { challengeOf, freshCode } from '../../support/two-factor.fixtures.ts';
import { TestClock } from '../../../src/clock.ts';
import { InMemoryCounterStore } from '../../../src/rate-limit/counter-store.ts';

/**
 * Decision 148: a flood that fills the in-process counter store pushes out its own counters,
 * never a lock or a failure. A small store stands for the default one; the flood is the one
 * seen live, anonymous forgot-password requests with a new address each.
 */
const FLOOD_ROOM = 200;

const login = (t: TestApp, email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password }, remoteAddress });

/** A member with an authenticator app, confirmed with the password as the account page asks. */
async function createTotpMember(t: TestApp) {
  const user = await createUser(t);
  const setup = await t.app.inject({
    method: 'POST',
    url: '/api/v1/account/two-factor/totp',
    headers: user.headers,
  });
  const secret = setup.json().secret as string;
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/api/v1/account/two-factor/totp/confirm',
    headers: user.headers,
    payload: { code: await freshCode(t, secret), current_password: TEST_PASSWORD },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { ...user, secret };
}

async function flood(t: TestApp, requests: number) {
  for (let i = 0; i < requests; i += 1) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: `flut-${i}@example.org` },
      remoteAddress: `198.51.${(i >> 8) & 255}.${i & 255}`,
    });
    expect(res.statusCode).toBe(200);
  }
}

describe('a flood that fills the counter store', () => {
  let t: TestApp;
  let store: InMemoryCounterStore;
  beforeAll(async () => {
    const clock = new TestClock();
    store = new InMemoryCounterStore(clock, { maxCounters: FLOOD_ROOM });
    t = await buildTestApp({
      clock,
      counters: store,
      env: { LOGIN_MAX_FAILURES_PER_CLIENT: '5', LOGIN_MAX_FAILURES_PER_ACCOUNT: '4' },
    });
  });
  afterAll(() => t.close());

  it('leaves a client blocked by its failures blocked, also for the right password', async () => {
    const member = await createUser(t);
    const client = '203.0.113.7';
    for (let i = 0; i < 5; i += 1) {
      expect((await login(t, `rate-${i}@example.org`, 'falsch-falsch-1', client)).statusCode).toBe(401);
    }
    expect((await login(t, member.email, TEST_PASSWORD, client)).statusCode).toBe(429);
    await flood(t, 2 * FLOOD_ROOM);
    expect(store.size).toBeGreaterThanOrEqual(FLOOD_ROOM);
    const after = await login(t, member.email, TEST_PASSWORD, client);
    expect(after.statusCode).toBe(429);
    expect(after.json().message).toBe(LOGIN_CLIENT_THROTTLED_MESSAGE);
  });

  it('leaves an account blocked by failures from many clients blocked', async () => {
    const member = await createUser(t);
    for (let i = 0; i < 4; i += 1) {
      expect((await login(t, member.email, 'falsch-falsch-1', `203.0.113.${20 + i}`)).statusCode).toBe(401);
    }
    await flood(t, 2 * FLOOD_ROOM);
    const after = await login(t, member.email, TEST_PASSWORD, '203.0.113.40');
    expect(after.statusCode).toBe(429);
    expect(after.json().message).toBe(LOGIN_ACCOUNT_THROTTLED_MESSAGE);
  });

  it('leaves the second step locked after 5 wrong codes, also for the right code', async () => {
    const member = await createTotpMember(t);
    const challenge = await challengeOf(t, member);
    const secondStep = (code: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/two-factor', payload: { challenge, code } });
    for (let i = 0; i < 5; i += 1) expect((await secondStep('123456')).statusCode).toBe(401);
    await flood(t, 2 * FLOOD_ROOM);
    const after = await secondStep(await freshCode(t, member.secret));
    expect(after.statusCode).toBe(429);
    expect(after.json().message).toContain('gesperrt');
  });
});

describe('a store without room for another failure', () => {
  let t: TestApp;
  beforeAll(async () => {
    const clock = new TestClock();
    t = await buildTestApp({
      clock,
      counters: new InMemoryCounterStore(clock, { maxCounters: FLOOD_ROOM, maxProtected: 4 }),
    });
  });
  afterAll(() => t.close());

  it('refuses the sign-in of a client it could not count, instead of checking its password', async () => {
    const member = await createUser(t);
    // Two failures fill the protected room: one per client, one per address each.
    for (let i = 0; i < 2; i += 1) {
      expect(
        (await login(t, `voll-${i}@example.org`, 'falsch-falsch-1', `203.0.113.${60 + i}`)).statusCode,
      ).toBe(401);
    }
    const refused = await login(t, member.email, TEST_PASSWORD, '203.0.113.99');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
