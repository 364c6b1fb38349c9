import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser } from '../support/factories.ts';

describe('TRUST_PROXY=true behind an appending proxy on this machine', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  it('throttles by the address the proxy saw, whatever the client forges in front of it', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `198.51.100.${attempt}, 203.0.113.7` },
        payload: { email: user.email, password: 'falsches-passwort' },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const entry = await t.db.kysely
      .selectFrom('audit_log')
      .select('ip')
      .where('action', '=', 'auth.login_failed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.ip).toBe('203.0.113.7');
  });
});
