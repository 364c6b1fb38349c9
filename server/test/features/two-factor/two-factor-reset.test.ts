import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TWO_FACTOR_MESSAGES } from '@gremienportal/contracts/two-factor';
import { spawnServerScript } from '../../reliability/portal-process.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import {
  challengeOf,
  createPasskeyUser,
  createTotpUser,
  freshCode,
  type TotpUser,
} from '../../support/two-factor.fixtures.ts';

describe('resetting another account’s second factor (lost device)', () => {
  let t: TestApp;
  let superAdmin: TotpUser;
  let admin: TotpUser;
  beforeAll(async () => {
    t = await buildTestApp();
    superAdmin = await createTotpUser(t, { roles: ['Super-Admin'] });
    admin = await createTotpUser(t, { roles: ['Admin'] });
  });
  afterAll(() => t.close());

  /** The reset, confirmed with the acting admin's current code (decision 146) unless `payload` says otherwise. */
  const reset = async (id: number, user: TestUser, payload?: Record<string, unknown>) =>
    t.app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${id}/two-factor`,
      headers: user.headers,
      payload: payload ?? ('secret' in user ? { code: await freshCode(t, (user as TotpUser).secret) } : {}),
    });
  const factorOn = async (id: number) =>
    Number(
      (
        await t.db.kysely
          .selectFrom('users')
          .select('two_factor_enabled')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).two_factor_enabled,
    ) === 1;

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
    // The member learns who did it and whom to turn to (decision 146).
    expect(mails[0]!.text).toContain('Zurückgesetzt von');
    expect(mails[0]!.text).toContain('Erika');
    expect(mails[0]!.text).toContain('wenden Sie sich bitte sofort an die Geschäftsstelle');
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

  it('refuses one’s own second factor: that is “Ausschalten” under “Mein Account”', async () => {
    const res = await reset(admin.id, admin);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Nutzen Sie „Ausschalten“ in Ihrem Konto.');
    expect(await factorOn(admin.id)).toBe(true);
    // With any code, as a stolen session would try it, too.
    expect((await reset(superAdmin.id, superAdmin, { code: '123456' })).statusCode).toBe(409);
    expect(await factorOn(superAdmin.id)).toBe(true);
  });

  it('needs the acting admin’s own second factor: none is a 403, a wrong code a 422', async () => {
    const member = await createTotpUser(t, { roles: ['Vertreter'] });
    const plainAdmin = await createUser(t, { roles: ['Admin'] });
    const none = await reset(member.id, plainAdmin, { code: '123456' });
    expect(none.statusCode).toBe(403);
    expect(none.json().message).toBe(TWO_FACTOR_MESSAGES.resetNeedsOwnFactor);

    const missing = await reset(member.id, admin, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.code).toEqual([TWO_FACTOR_MESSAGES.codeFormat]);
    const wrong = await reset(member.id, admin, { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual([TWO_FACTOR_MESSAGES.codeInvalid]);
    // The member's own code is no proof of the admin.
    const membersCode = await reset(member.id, admin, { code: await freshCode(t, member.secret) });
    expect(membersCode.statusCode).toBe(422);
    const wrongRecovery = await reset(member.id, admin, { recovery_code: 'aaaa-bbbb' });
    expect(wrongRecovery.statusCode).toBe(422);
    expect(wrongRecovery.json().errors.recovery_code).toEqual([TWO_FACTOR_MESSAGES.recoveryInvalid]);
    expect(await factorOn(member.id)).toBe(true);
    expect(
      await t.db.kysely
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', 'user.two_factor_reset')
        .where('object_id', '=', member.id)
        .execute(),
    ).toEqual([]);

    // A recovery code of the admin's own does, once.
    const [code] = admin.recoveryCodes;
    expect((await reset(member.id, admin, { recovery_code: code })).statusCode).toBe(204);
    expect(await factorOn(member.id)).toBe(false);
    const again = await createTotpUser(t, { roles: ['Vertreter'] });
    expect((await reset(again.id, admin, { recovery_code: code })).statusCode).toBe(422);
  });

  it('counts wrong codes toward the admin’s own lock and mails the admin', async () => {
    const actor = await createTotpUser(t, { roles: ['Admin'] });
    const member = await createTotpUser(t, { roles: ['Vertreter'] });
    const before = (await t.flushMail()).length;
    for (let i = 0; i < 5; i += 1) {
      expect((await reset(member.id, actor, { code: '000000' })).statusCode).toBe(422);
    }
    // Locked now: the right code waits as well, and so does the actor's own sign-in.
    const locked = await reset(member.id, actor);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toEqual(expect.any(String));
    expect(await factorOn(member.id)).toBe(true);
    const mails = (await t.flushMail()).slice(before);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [actor.email, 'Falsche Bestätigungscodes – Gremienportal'],
    ]);
    t.clock.advance(16 * 60_000);
    expect((await reset(member.id, actor)).statusCode).toBe(204);
  });

  it('lets an admin whose only factor is a passkey confirm with it or with a recovery code', async () => {
    const actor = await createPasskeyUser(t, { roles: ['Super-Admin'] });
    const member = await createTotpUser(t, { roles: ['Vertreter'] });
    const options = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/two-factor/webauthn/confirm-options',
      headers: actor.headers,
    });
    expect(options.statusCode, options.body).toBe(200);
    // A TOTP code cannot be right without an app.
    expect((await reset(member.id, actor, { code: '123456' })).statusCode).toBe(422);
    const res = await reset(member.id, actor, { webauthn: actor.device.assert(options.json()) });
    expect(res.statusCode, res.body).toBe(204);
    const other = await createTotpUser(t, { roles: ['Vertreter'] });
    expect((await reset(other.id, actor, { recovery_code: actor.recoveryCodes[0] })).statusCode).toBe(204);
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
