import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers } from '../../support/factories.ts';

describe('GET /api/v1/roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('lists every role by id for any signed-in user', async () => {
    const users = await createRoleUsers(t);
    const expected = await t.db.kysely.selectFrom('roles').select(['id', 'name']).orderBy('id').execute();
    expect(expected.map((role) => role.name)).toEqual(['Admin', 'Super-Admin', 'Aufsichtsrat', 'Vertreter']);
    for (const user of Object.values(users)) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/roles', headers: user.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: expected });
    }
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/roles' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
  });
});
