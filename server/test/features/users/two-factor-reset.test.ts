import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServerScript } from '../../reliability/portal-process.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { challengeOf, createTotpUser } from '../../support/two-factor.fixtures.ts';

describe('resetting another account’s second factor (lost device)', () => {
  let t: TestApp;
  let superAdmin: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    superAdmin = await createUser(t, { roles: ['Super-Admin'] });
    admin = await createUser(t, { roles: ['Admin'] });
  });
  afterAll(() => t.close());

  const reset = (id: number, user: TestUser) =>
    t.app.inject({ method: 'DELETE', url: `/api/v1/user/${id}/two-factor`, headers: user.headers });

  it('lets the office reset a member: sessions end, the audit and the member are told', async () => {
    const member = await createTotpUser(t, { roles: ['Vertreter'] });
    await challengeOf(t, member);
    await t.flushMail();
    const before = t.mail.sent.length;
    const res = await reset(member.id, admin);
    expect(res.statusCode, res.body).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: member.headers })).statusCode,
    ).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: member.email, password: member.password },
    });
    expect(login.json().access_token).toEqual(expect.any(String));
    const mails = (await t.flushMail()).slice(before);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [member.email, 'Zwei-Faktor-Anmeldung zurückgesetzt – Gremienportal'],
    ]);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['actor_id', 'object_id'])
      .where('action', '=', 'user.two_factor_reset')
      .execute();
    expect(audit).toEqual([{ actor_id: admin.id, object_id: member.id }]);
    expect((await reset(member.id, admin)).statusCode).toBe(409);
    expect((await reset(999_999, admin)).statusCode).toBe(404);
  });

  it('keeps an Admin from resetting a Super-Admin’s or an Admin’s; a Super-Admin may', async () => {
    const other = await createTotpUser(t, { roles: ['Super-Admin'] });
    const otherAdmin = await createTotpUser(t, { roles: ['Admin'] });
    expect((await reset(other.id, admin)).statusCode).toBe(403);
    expect((await reset(otherAdmin.id, admin)).statusCode).toBe(403);
    const member = await createUser(t, { roles: ['Vertreter'] });
    expect((await reset(other.id, member)).statusCode).toBe(403);
    expect((await reset(other.id, superAdmin)).statusCode).toBe(204);
    expect((await reset(otherAdmin.id, superAdmin)).statusCode).toBe(204);
  });

  it('has a command line way out for the operator', { timeout: 60_000 }, async () => {
    const locked = await createTotpUser(t, { roles: ['Super-Admin'] });
    const run = spawnServerScript('src/cli.ts', ['reset-2fa', '--email', locked.email], {
      ...process.env,
      DATA_DIR: t.dataDir,
      DATABASE_URL: t.config.DATABASE_URL ?? '',
      LOG_LEVEL: 'warn',
    });
    expect(await run.exited, run.output()).toBe(0);
    expect(run.output()).toContain(`Zwei-Faktor-Anmeldung von ${locked.email} zurückgesetzt`);
    const row = await t.db.kysely
      .selectFrom('users')
      .select('two_factor_enabled')
      .where('id', '=', locked.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.two_factor_enabled)).toBe(0);
    const again = spawnServerScript('src/cli.ts', ['reset-2fa', '--email', locked.email], {
      ...process.env,
      DATA_DIR: t.dataDir,
      DATABASE_URL: t.config.DATABASE_URL ?? '',
    });
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain('nichts zu tun');
  });
});
