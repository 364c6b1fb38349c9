import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, TEST_PASSWORD } from '../../support/factories.ts';
import { HOUR, MINUTE } from '../../../src/clock.ts';
import { hashToken } from '../../../src/credentials/tokens.ts';

/** Session expiry (product.md P8.4): idle 60 minutes, absolute 12 hours, both configurable. */
describe('session expiry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  async function signIn(app: TestApp = t) {
    const user = await createUser(app);
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    const token = res.json().access_token as string;
    return { user, token, headers: { authorization: `Bearer ${token}` } };
  }
  const roles = (headers: Record<string, string>, app: TestApp = t) =>
    app.app.inject({ method: 'GET', url: '/api/v1/roles', headers });

  it('ends a session after 60 minutes without a request', async () => {
    const { token, headers } = await signIn();
    t.clock.advance(59 * MINUTE);
    expect((await roles(headers)).statusCode).toBe(200);
    t.clock.advance(60 * MINUTE + 1_000);
    const res = await roles(headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
    // The expired session is gone, not just refused.
    const row = await t.db.kysely
      .selectFrom('sessions')
      .select('id')
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('keeps an active session alive, but not beyond 12 hours', async () => {
    const { headers } = await signIn();
    let elapsed = 0;
    while (elapsed + 55 * MINUTE < 12 * HOUR) {
      t.clock.advance(55 * MINUTE);
      elapsed += 55 * MINUTE;
      expect((await roles(headers)).statusCode, `nach ${elapsed / MINUTE} Minuten`).toBe(200);
    }
    t.clock.advance(12 * HOUR - elapsed + 1_000);
    expect((await roles(headers)).statusCode).toBe(401);
  });

  it('counts idle time from the last request, not from the login', async () => {
    const { headers } = await signIn();
    t.clock.advance(30 * MINUTE);
    expect((await roles(headers)).statusCode).toBe(200);
    t.clock.advance(50 * MINUTE);
    expect((await roles(headers)).statusCode).toBe(200);
    t.clock.advance(61 * MINUTE);
    expect((await roles(headers)).statusCode).toBe(401);
  });

  it('takes both limits from the configuration', async () => {
    const short = await buildTestApp({ env: { SESSION_IDLE_MINUTES: '5', SESSION_ABSOLUTE_HOURS: '1' } });
    try {
      const idle = await signIn(short);
      short.clock.advance(6 * MINUTE);
      expect((await roles(idle.headers, short)).statusCode).toBe(401);

      const busy = await signIn(short);
      for (let i = 0; i < 14; i += 1) {
        short.clock.advance(4 * MINUTE);
        expect((await roles(busy.headers, short)).statusCode).toBe(200);
      }
      short.clock.advance(5 * MINUTE);
      expect((await roles(busy.headers, short)).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('keeps a session of a one-minute idle limit alive while it is used within each minute', async () => {
    const short = await buildTestApp({ env: { SESSION_IDLE_MINUTES: '1' } });
    try {
      const { headers } = await signIn(short);
      // t = 0, 30 s, 80 s and 139 s: never more than 59 s apart, so every request counts as use.
      expect((await roles(headers, short)).statusCode).toBe(200);
      short.clock.advance(30_000);
      expect((await roles(headers, short)).statusCode).toBe(200);
      short.clock.advance(50_000);
      expect((await roles(headers, short)).statusCode).toBe(200);
      short.clock.advance(59_000);
      expect((await roles(headers, short)).statusCode).toBe(200);
      // 61 s without a request: the idle limit has passed.
      short.clock.advance(61_000);
      expect((await roles(headers, short)).statusCode).toBe(401);
    } finally {
      await short.close();
    }
  });

  it('removes sessions that ran out when the user signs in again', async () => {
    const { user } = await signIn();
    const sessionsOf = () =>
      t.db.kysely.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
    // The factory's session and the login's.
    expect(await sessionsOf()).toHaveLength(2);
    t.clock.advance(2 * HOUR);
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(await sessionsOf()).toHaveLength(1);
  });
});
