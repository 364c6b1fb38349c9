import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser } from '../../support/factories.ts';

// The early duplicate check sees nothing, as when another request takes the address between that
// check and the write: only the unique index stops the second account.
vi.mock('../../../src/features/account/account.repository.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../src/features/account/account.repository.ts')>()),
  emailTakenByOther: async () => false,
}));

describe('PUT /api/v1/account when the duplicate check loses a race', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers the unique-index violation with the same German 422, on either database', async () => {
    const admin = await createUser(t, { roles: ['Admin'] });
    const other = await createUser(t);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/account',
      headers: admin.headers,
      payload: { email: other.email, firstname: 'Neuer Name' },
    });
    expect(res.statusCode).toBe(422);
    const message = 'Diese E-Mail-Adresse wird bereits verwendet.';
    expect(res.json()).toEqual({ message, errors: { email: [message] } });
    // Nothing of the request was applied, and nothing recorded.
    const stored = await t.db.kysely
      .selectFrom('users')
      .select(['email', 'firstname'])
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ email: admin.email, firstname: 'Erika' });
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'account.updated')
      .where('object_id', '=', admin.id)
      .execute();
    expect(audit).toHaveLength(0);
  });
});
