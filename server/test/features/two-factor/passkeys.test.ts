import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../../src/features/two-factor/totp.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, sessionFor, TEST_PASSWORD, type TestUser } from '../../support/factories.ts';
import { SoftAuthenticator } from '../../support/soft-authenticator.ts';

/**
 * Passkeys (decision 126): registration, sign-in, turning the second factor off with one, and the
 * checks that make a passkey phishing-resistant (origin, challenge, single use). A software
 * authenticator signs for real; the browser prompt is the e2e test's.
 */
describe('passkeys (WebAuthn)', () => {
  let t: TestApp;
  let user: TestUser;
  let device: SoftAuthenticator;
  let recoveryCodes: string[];
  beforeAll(async () => {
    t = await buildTestApp({ env: { TWO_FACTOR_REQUIRED_ROLES: 'Admin,Super-Admin' } });
    user = await createUser(t, { roles: ['Admin'] });
    device = new SoftAuthenticator('http://portal.test');
  });
  afterAll(() => t.close());

  const withPassword = { current_password: TEST_PASSWORD };
  const post = (url: string, payload?: object, headers: Record<string, string> = user.headers) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
  const signInStep = async () => {
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    return first.json() as { challenge: string; methods: string[] };
  };
  const addPasskey = async (name: string, headers = user.headers) => {
    const options = (
      await post('/account/two-factor/webauthn/registration-options', withPassword, headers)
    ).json();
    return post(
      '/account/two-factor/webauthn/registration',
      { name, response: device.register(options) },
      headers,
    );
  };

  it('registers a passkey as the first second factor of an Admin who must set one up', async () => {
    const other = await sessionFor(t, user.id);
    const optionsRes = await post('/account/two-factor/webauthn/registration-options', withPassword);
    expect(optionsRes.statusCode, optionsRes.body).toBe(200);
    expect(optionsRes.headers['cache-control']).toBe('no-store');
    const options = optionsRes.json();
    // The relying party is the host of PUBLIC_URL; the user handle is not the address.
    expect(options.rp).toEqual({ name: 'Gremienportal', id: 'portal.test' });
    expect(options.user.name).toBe(user.email);
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(`gremienportal-user-${user.id}`);

    const res = await post('/account/two-factor/webauthn/registration', {
      name: '  Laptop  ',
      response: device.register(options),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.passkey).toMatchObject({ name: 'Laptop', last_used_at: null });
    recoveryCodes = body.recovery_codes;
    expect(recoveryCodes).toHaveLength(10);

    const account = (
      await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: user.headers })
    ).json().data;
    expect(account.two_factor).toMatchObject({ totp: false, webauthn: 1, recovery_codes_left: 10 });
    expect(account.two_factor.passkeys).toEqual([expect.objectContaining({ name: 'Laptop' })]);
    // Set up: the gate opens; other sessions ended; audited and mailed.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/files', headers: user.headers })).statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/account',
          headers: { authorization: `Bearer ${other}` },
        })
      ).statusCode,
    ).toBe(401);
    const mails = await t.flushMail();
    expect(mails.at(-1)!.text).toContain('die Zwei-Faktor-Anmeldung wurde für Ihr Konto eingerichtet');
  });

  it('refuses a registration answer for another challenge, another origin, or twice', async () => {
    const options = (await post('/account/two-factor/webauthn/registration-options', withPassword)).json();
    const forged = new SoftAuthenticator('https://phishing.example').register(options);
    const foreign = await post('/account/two-factor/webauthn/registration', { name: 'X', response: forged });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.response).toEqual([
      'Der Passkey konnte nicht hinzugefügt werden. Bitte versuchen Sie es erneut.',
    ]);
    // The prompt was spent by the refused answer: a correct one now needs a new prompt.
    const late = await post('/account/two-factor/webauthn/registration', {
      name: 'X',
      response: device.register(options),
    });
    expect(late.statusCode).toBe(422);
    device.credentials.pop();
    for (const response of [{}, { id: 'x', response: 'kaputt' }, { id: 'a'.repeat(5000) }]) {
      await post('/account/two-factor/webauthn/registration-options', withPassword);
      const bad = await post('/account/two-factor/webauthn/registration', { name: 'X', response });
      expect(bad.statusCode).toBe(422);
    }
    const noName = await post('/account/two-factor/webauthn/registration', { name: ' ', response: {} });
    expect(noName.json().errors.name).toEqual(['Bitte einen Namen für den Passkey angeben.']);
  });

  it('adds a second passkey without new recovery codes, audited as added', async () => {
    const res = await addPasskey('Handy');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().recovery_codes).toEqual([]);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('actor_id', '=', user.id)
      .execute();
    expect(audit.map((a) => a.action)).toContain('account.passkey_added');
  });

  it('signs in with a passkey; its answer is bound to this sign-in and accepted once', async () => {
    const step = await signInStep();
    expect(step.methods).toEqual(['webauthn', 'recovery']);
    const optionsRes = await post('/auth/two-factor/webauthn/options', { challenge: step.challenge }, {});
    expect(optionsRes.statusCode, optionsRes.body).toBe(200);
    const options = optionsRes.json();
    expect(options.rpId).toBe('portal.test');
    expect(options.allowCredentials).toHaveLength(2);

    const answer = device.assert(options);
    const done = await post(
      '/auth/two-factor/webauthn/verify',
      { challenge: step.challenge, response: answer, trust_device: true },
      {},
    );
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ access_token: expect.any(String), device_token: expect.any(String) });
    const token = done.json().access_token;
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v1/files',
          headers: { authorization: `Bearer ${token}` },
        })
      ).statusCode,
    ).toBe(200);
    // Replayed with the same sign-in: spent. With a new sign-in: the challenge differs.
    expect(
      (await post('/auth/two-factor/webauthn/verify', { challenge: step.challenge, response: answer }, {}))
        .statusCode,
    ).toBe(401);
    const next = await signInStep();
    await post('/auth/two-factor/webauthn/options', { challenge: next.challenge }, {});
    const replay = await post(
      '/auth/two-factor/webauthn/verify',
      { challenge: next.challenge, response: answer },
      {},
    );
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(
      'Der Passkey konnte nicht bestätigt werden. Bitte versuchen Sie es erneut.',
    );
    const used = await t.db.kysely
      .selectFrom('passkeys')
      .select(['last_used_at', 'counter'])
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(used[0]!.last_used_at).not.toBeNull();
    expect(Number(used[0]!.counter)).toBe(1);
  });

  it('refuses a passkey answer from another site, and a passkey of another account', async () => {
    const step = await signInStep();
    const options = (
      await post('/auth/two-factor/webauthn/options', { challenge: step.challenge }, {})
    ).json();
    const phished = await post(
      '/auth/two-factor/webauthn/verify',
      {
        challenge: step.challenge,
        response: new SoftAuthenticator('https://phishing.example').assert(options, device.credentials[0]),
      },
      {},
    );
    expect(phished.statusCode).toBe(401);

    const stranger = await createUser(t, { roles: ['Vertreter'] });
    const strangerDevice = new SoftAuthenticator('http://portal.test');
    const regOptions = (
      await post('/account/two-factor/webauthn/registration-options', withPassword, stranger.headers)
    ).json();
    await post(
      '/account/two-factor/webauthn/registration',
      { name: 'Fremd', response: strangerDevice.register(regOptions) },
      stranger.headers,
    );
    const theirs = await post(
      '/auth/two-factor/webauthn/verify',
      { challenge: step.challenge, response: strangerDevice.assert(options, strangerDevice.credentials[0]) },
      {},
    );
    expect(theirs.statusCode).toBe(401);
    // Options need a live sign-in; an account without passkeys has none to offer.
    expect(
      (await post('/auth/two-factor/webauthn/options', { challenge: 'x'.repeat(40) }, {})).statusCode,
    ).toBe(401);
  });

  it('removes a passkey but not the only second factor', async () => {
    const { passkeys } = (
      await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: user.headers })
    ).json().data.two_factor;
    const remove = (id: number) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/v1/account/two-factor/webauthn/${id}`,
        headers: user.headers,
      });
    expect((await remove(passkeys[1].id)).statusCode).toBe(204);
    const last = await remove(passkeys[0].id);
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toContain('einziger zweiter Faktor');
    // Another account's passkey id answers like a missing one.
    expect((await remove(999_999)).statusCode).toBe(404);
    device.credentials.splice(1, 1);
  });

  it('adds an authenticator app next to a passkey without replacing the recovery codes', async () => {
    const { secret } = (await post('/account/two-factor/totp')).json();
    const confirmed = await post('/account/two-factor/totp/confirm', {
      code: await totpCode(secret, t.clock.now()),
      current_password: TEST_PASSWORD,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().recovery_codes).toEqual([]);
    const step = await signInStep();
    expect(step.methods).toEqual(['totp', 'webauthn', 'recovery']);
    const withCode = await post(
      '/auth/two-factor',
      { challenge: step.challenge, recovery_code: recoveryCodes[0] },
      {},
    );
    expect(withCode.statusCode).toBe(200);
  });

  it('turns the second factor off with the password and a passkey', async () => {
    const disable = (payload: object) =>
      t.app.inject({ method: 'DELETE', url: '/api/v1/account/two-factor', headers: user.headers, payload });
    // Without a prompt first, an answer cannot be checked.
    const stale = device.assert({ challenge: 'AAAA', rpId: 'portal.test' });
    const refused = await disable({ password: TEST_PASSWORD, webauthn: stale });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.webauthn).toEqual([
      'Der Passkey konnte nicht bestätigt werden. Bitte versuchen Sie es erneut.',
    ]);
    const options = (await post('/account/two-factor/webauthn/confirm-options')).json();
    const res = await disable({ password: TEST_PASSWORD, webauthn: device.assert(options) });
    expect(res.statusCode, res.body).toBe(204);
    const left = await t.db.kysely
      .selectFrom('passkeys')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(left).toEqual([]);
    // Off again, the Admin must set a second factor up before anything else.
    expect((await post('/account/two-factor/webauthn/confirm-options')).json().code).toBe(
      'two_factor_setup_required',
    );
    // An account without passkeys gets no prompt.
    const member = await createUser(t, { roles: ['Vertreter'] });
    const none = await post('/account/two-factor/webauthn/confirm-options', undefined, member.headers);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('Für dieses Konto ist kein Passkey eingerichtet.');
  });
});
