// Over 300 lines: setup, sign-in, throttling and turning off share one account whose clock and
// TOTP seed the steps pass on; splitting would repeat that set-up in every file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../../src/clock.ts';
import { totpCode } from '../../../src/features/two-factor/totp.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, sessionFor, TEST_PASSWORD, type TestUser } from '../../support/factories.ts';

describe('second factor (TOTP and recovery codes)', () => {
  let t: TestApp;
  let user: TestUser;
  let secret: string;
  let recoveryCodes: string[];
  beforeAll(async () => {
    t = await buildTestApp({ env: { TWO_FACTOR_REQUIRED_ROLES: 'Admin,Super-Admin' } });
    user = await createUser(t, { roles: ['Admin'] });
  });
  afterAll(() => t.close());

  const inject = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    headers = user.headers,
  ) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const login = (extra: object = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD, ...extra },
    });
  const secondStep = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/two-factor', payload });
  /** A code of a later 30-second step than any used so far (each code is accepted once). */
  const nextCode = async () => {
    t.clock.advance(30_000);
    return totpCode(secret, t.clock.now());
  };

  it('lets an Admin without a second factor do nothing but set it up (403 with a code)', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/files'],
      ['GET', '/api/v1/user'],
      ['GET', '/api/v1/trash'],
      ['POST', '/api/v1/account/two-factor/recovery-codes'],
    ] as const) {
      const res = await inject(method, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({
        message:
          'Für Ihre Rolle ist die Zwei-Faktor-Anmeldung vorgeschrieben. Bitte richten Sie sie ein, bevor Sie weiterarbeiten.',
        code: 'two_factor_setup_required',
      });
    }
    expect((await inject('GET', '/api/v1/account')).json().data.two_factor.required).toBe(true);
    expect((await inject('GET', '/api/v1/settings')).statusCode).toBe(200);
    // A Vertreter is not asked; granting Admin applies at the next request.
    const member = await createUser(t, { roles: ['Vertreter'] });
    expect((await inject('GET', '/api/v1/files', undefined, member.headers)).statusCode).toBe(200);
    const adminRole = await t.db.kysely
      .selectFrom('roles')
      .select('id')
      .where('name', '=', 'Admin')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .insertInto('user_roles')
      .values({ user_id: member.id, role_id: adminRole.id })
      .execute();
    expect((await inject('GET', '/api/v1/files', undefined, member.headers)).json().code).toBe(
      'two_factor_setup_required',
    );
  });

  it('sets up an authenticator app: QR code made here, pending until a code confirms it', async () => {
    const other = await sessionFor(t, user.id);
    const setup = await inject('POST', '/api/v1/account/two-factor/totp');
    expect(setup.statusCode, setup.body).toBe(200);
    const body = setup.json();
    secret = body.secret;
    expect(body.otpauth_url).toBe(
      `otpauth://totp/Gremienportal:${encodeURIComponent(user.email)}?secret=${secret}&issuer=Gremienportal`,
    );
    expect(body.qr_svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(setup.headers['cache-control']).toBe('no-store');

    let account = (await inject('GET', '/api/v1/account')).json().data;
    expect(account.two_factor).toMatchObject({
      totp: false,
      webauthn: 0,
      recovery_codes_left: 0,
      required: true,
    });
    // Not active yet: sign-in needs no second step.
    expect((await login()).json().access_token).toEqual(expect.any(String));

    const wrong = await inject('POST', '/api/v1/account/two-factor/totp/confirm', {
      code: '000000',
      current_password: TEST_PASSWORD,
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual([
      'Der Bestätigungscode ist nicht korrekt. Bitte versuchen Sie es erneut.',
    ]);
    // The password is asked again, also in the set-up a role requires (decision 147).
    const code = await totpCode(secret, t.clock.now());
    const noPassword = await inject('POST', '/api/v1/account/two-factor/totp/confirm', { code });
    expect(noPassword.statusCode).toBe(422);
    expect(noPassword.json().errors.current_password).toEqual(['Aktuelles Passwort ist erforderlich.']);
    const wrongPassword = await inject('POST', '/api/v1/account/two-factor/totp/confirm', {
      code,
      current_password: 'Falsches-Kennwort-1',
    });
    expect(wrongPassword.statusCode).toBe(422);
    expect(wrongPassword.json().errors.current_password).toEqual([
      'Das aktuelle Passwort ist nicht korrekt.',
    ]);
    expect((await inject('GET', '/api/v1/account')).json().data.two_factor.totp).toBe(false);
    const confirmed = await inject('POST', '/api/v1/account/two-factor/totp/confirm', {
      code,
      current_password: TEST_PASSWORD,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    recoveryCodes = confirmed.json().recovery_codes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);

    account = (await inject('GET', '/api/v1/account')).json().data;
    expect(account.two_factor).toMatchObject({ totp: true, recovery_codes_left: 10 });
    expect((await inject('GET', '/api/v1/files')).statusCode).toBe(200);
    expect(JSON.stringify(account)).not.toContain(secret);
    // The other session ended; this one goes on.
    expect(
      (await inject('GET', '/api/v1/account', undefined, { authorization: `Bearer ${other}` })).statusCode,
    ).toBe(401);
    const stored = await t.db.kysely
      .selectFrom('users')
      .select(['totp_secret', 'totp_pending'])
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.totp_pending).toBeNull();
    expect(stored.totp_secret).toMatch(/^v1\./);
    expect(stored.totp_secret).not.toContain(secret);
    const codes = await t.db.kysely
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    for (const code of recoveryCodes) expect(JSON.stringify(codes)).not.toContain(code);
    const mails = await t.flushMail();
    expect(mails.at(-1)).toMatchObject({
      to: user.email,
      subject: 'Zwei-Faktor-Anmeldung geändert – Gremienportal',
    });
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('actor_id', '=', user.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain('account.two_factor_enabled');
    expect((await inject('POST', '/api/v1/account/two-factor/totp')).statusCode).toBe(409);
  });

  it('asks for the second step after the password and accepts each code once', async () => {
    const first = await login();
    expect(first.statusCode).toBe(200);
    const step = first.json();
    expect(step).toEqual({
      two_factor_required: true,
      methods: ['totp', 'recovery'],
      challenge: expect.any(String),
    });
    expect(step.access_token).toBeUndefined();
    // The challenge grants nothing but the second step.
    expect(
      (await inject('GET', '/api/v1/account', undefined, { authorization: `Bearer ${step.challenge}` }))
        .statusCode,
    ).toBe(401);

    const code = await nextCode();
    const done = await secondStep({ challenge: step.challenge, code });
    expect(done.statusCode, done.body).toBe(200);
    const token = done.json().access_token;
    expect(
      (await inject('GET', '/api/v1/account', undefined, { authorization: `Bearer ${token}` })).statusCode,
    ).toBe(200);
    // Single-use challenge, and no replay of the same code with a new challenge.
    expect((await secondStep({ challenge: step.challenge, code })).statusCode).toBe(401);
    const again = (await login()).json();
    const replay = await secondStep({ challenge: again.challenge, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(
      'Der Bestätigungscode ist nicht korrekt. Bitte versuchen Sie es erneut.',
    );
  });

  it('lets a challenge expire after 5 minutes', async () => {
    const step = (await login()).json();
    t.clock.advance(5 * MINUTE + 1000);
    const late = await secondStep({ challenge: step.challenge, code: await totpCode(secret, t.clock.now()) });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe(
      'Die Anmeldung ist abgelaufen. Bitte melden Sie sich erneut mit Ihrem Passwort an.',
    );
  });

  it('accepts a recovery code once, in any case and with or without the dash', async () => {
    const step = (await login()).json();
    const code = recoveryCodes[0]!.toLowerCase().replace('-', ' ');
    expect((await secondStep({ challenge: step.challenge, recovery_code: code })).statusCode).toBe(200);
    const next = (await login()).json();
    const reused = await secondStep({ challenge: next.challenge, recovery_code: recoveryCodes[0] });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(
      'Dieser Wiederherstellungscode ist ungültig oder wurde bereits verwendet.',
    );
  });

  it('locks the second step for 15 minutes after 5 wrong codes and mails the member', async () => {
    // A right code ends any run of wrong ones before.
    const ok = (await login()).json();
    expect((await secondStep({ challenge: ok.challenge, code: await nextCode() })).statusCode).toBe(200);
    const step = (await login()).json();
    await t.flushMail();
    const before = t.mail.sent.length;
    for (let i = 0; i < 5; i += 1) {
      expect((await secondStep({ challenge: step.challenge, code: '123456' })).statusCode).toBe(401);
    }
    const locked = await secondStep({ challenge: step.challenge, code: await nextCode() });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(
      'Zu viele falsche Bestätigungscodes: Die Anmeldung für dieses Konto ist gesperrt. Bitte versuchen Sie es in 15 Minuten erneut.',
    );
    // 30 seconds of the lock passed with the step to the next code.
    expect(Number(locked.headers['retry-after'])).toBe(870);
    // The answer says how long is left.
    t.clock.advance(13 * MINUTE);
    const later = await secondStep({ challenge: (await login()).json().challenge, code: await nextCode() });
    expect(later.json().message).toContain('in einer Minute erneut');
    const mails = (await t.flushMail()).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Jemand hat mehrfach einen falschen Bestätigungscode');
    t.clock.advance(MINUTE);
    const fresh = (await login()).json();
    expect((await secondStep({ challenge: fresh.challenge, code: await nextCode() })).statusCode).toBe(200);
  });

  it('trusts a device for 30 days when asked', async () => {
    const step = (await login()).json();
    const done = (
      await secondStep({ challenge: step.challenge, code: await nextCode(), trust_device: true })
    ).json();
    expect(done.device_token).toEqual(expect.any(String));
    const trusted = await login({ device_token: done.device_token });
    expect(trusted.json().access_token).toEqual(expect.any(String));
    expect((await login({ device_token: 'x'.repeat(43) })).json().two_factor_required).toBe(true);
    const account = (
      await inject('GET', '/api/v1/account', undefined, {
        authorization: `Bearer ${trusted.json().access_token}`,
      })
    ).json().data;
    expect(account.two_factor.trusted_devices).toHaveLength(1);
    // Revoked on the account page: the next sign-in asks again; someone else's id is a 404.
    const deviceId = account.two_factor.trusted_devices[0].id as number;
    const trustedHeaders = { authorization: `Bearer ${trusted.json().access_token}` };
    const other = await createUser(t, { roles: ['Vertreter'] });
    expect(
      (
        await inject(
          'DELETE',
          `/api/v1/account/two-factor/trusted-devices/${deviceId}`,
          undefined,
          other.headers,
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await inject(
          'DELETE',
          `/api/v1/account/two-factor/trusted-devices/${deviceId}`,
          undefined,
          trustedHeaders,
        )
      ).statusCode,
    ).toBe(204);
    expect((await login({ device_token: done.device_token })).json().two_factor_required).toBe(true);

    // A new trust ends with the 30 days, and with a password change.
    const again = (await login()).json();
    const second = (
      await secondStep({ challenge: again.challenge, code: await nextCode(), trust_device: true })
    ).json();
    const changed = await inject(
      'PUT',
      '/api/v1/account',
      {
        password: 'Ganz-Neues-Passwort-9',
        password_confirmation: 'Ganz-Neues-Passwort-9',
        current_password: TEST_PASSWORD,
      },
      { authorization: `Bearer ${second.access_token}` },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const withNew = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: 'Ganz-Neues-Passwort-9', device_token: second.device_token },
    });
    expect(withNew.json().two_factor_required).toBe(true);
    await inject(
      'PUT',
      '/api/v1/account',
      {
        password: TEST_PASSWORD,
        password_confirmation: TEST_PASSWORD,
        current_password: 'Ganz-Neues-Passwort-9',
      },
      { authorization: `Bearer ${second.access_token}` },
    );
    const third = (
      await secondStep({
        challenge: (await login()).json().challenge,
        code: await nextCode(),
        trust_device: true,
      })
    ).json();
    t.clock.advance(31 * 24 * 60 * MINUTE);
    expect((await login({ device_token: third.device_token })).json().two_factor_required).toBe(true);
  });

  it('renews recovery codes and turns the factor off only with password and code', async () => {
    const step = (await login()).json();
    const headers = {
      authorization: `Bearer ${(await secondStep({ challenge: step.challenge, code: await nextCode() })).json().access_token}`,
    };
    const renewed = await inject('POST', '/api/v1/account/two-factor/recovery-codes', undefined, headers);
    expect(renewed.statusCode).toBe(200);
    const fresh = renewed.json().recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    let res = await inject(
      'DELETE',
      '/api/v1/account/two-factor',
      { password: 'falsch-falsch', code: await nextCode() },
      headers,
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.password).toEqual(['Das Passwort ist nicht korrekt.']);
    res = await inject(
      'DELETE',
      '/api/v1/account/two-factor',
      { password: TEST_PASSWORD, recovery_code: recoveryCodes[1] },
      headers,
    );
    expect(res.statusCode).toBe(422);
    res = await inject(
      'DELETE',
      '/api/v1/account/two-factor',
      { password: TEST_PASSWORD, recovery_code: fresh[0] },
      headers,
    );
    expect(res.statusCode, res.body).toBe(204);
    expect((await login()).json().access_token).toEqual(expect.any(String));
    const account = (await inject('GET', '/api/v1/account', undefined, headers)).json().data;
    expect(account.two_factor).toMatchObject({ totp: false, recovery_codes_left: 0, trusted_devices: [] });
    // Off again, the Admin is back to setting it up before anything else.
    const after = await inject('POST', '/api/v1/account/two-factor/recovery-codes', undefined, headers);
    expect(after.json().code).toBe('two_factor_setup_required');
  });
});
