import { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, TEST_PASSWORD, type TestUser } from '../support/factories.ts';
import { configSchema } from '../../src/config.ts';
import { loggerOptions } from '../../src/plugins/logging.ts';
import { MINUTE } from '../../src/clock.ts';
import { totpCode } from '../../src/features/two-factor/totp.ts';

/**
 * The second factor's secrets (decision 126) go to the one person they belong to, in the one answer
 * that hands them out, and nowhere else: not into the log at its most verbose level, the audit
 * log or a mail, and not into any other answer. A whole flow runs once — set-up, sign-in with a
 * code (trusting the device), a wrong code, a recovery code, new recovery codes, turning it off —
 * and then every output is searched for every secret it produced.
 */

interface Secret {
  name: string;
  value: string;
  /** How it would show when logged (a 6-digit code as a number of its own, a recovery code in any case). */
  pattern: RegExp;
  /** The answers that legitimately carry it. */
  allowedIn: Set<LightMyRequestResponse>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('second factor: secrets stay out of logs and other answers', () => {
  const lines: string[] = [];
  const responses: { label: string; res: LightMyRequestResponse }[] = [];
  const secrets: Secret[] = [];
  let t: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    });
    // The production logger (redaction, serializers) at the most verbose level there is.
    const env = { LOG_LEVEL: 'trace', TWO_FACTOR_REQUIRED_ROLES: 'Admin,Super-Admin' };
    const options = loggerOptions(configSchema.parse(env)) as pino.LoggerOptions;
    expect(options.level).toBe('trace');
    t = await buildTestApp({ env, logger: pino(options, stream) });
    admin = await createUser(t, { roles: ['Admin'] });
  });
  afterAll(() => t?.close());

  async function call(label: string, options: InjectOptions): Promise<LightMyRequestResponse> {
    const res = await t.app.inject(options);
    responses.push({ label, res });
    return res;
  }

  function keep(name: string, value: string, allowedIn: LightMyRequestResponse[] = [], pattern?: RegExp) {
    expect(value, name).toEqual(expect.any(String));
    expect(value.length, name).toBeGreaterThanOrEqual(6);
    secrets.push({
      name,
      value,
      pattern: pattern ?? new RegExp(escape(value)),
      allowedIn: new Set(allowedIn),
    });
  }
  /** A 6-digit code, also when logged as a number; not a run of digits inside a timestamp. */
  const keepCode = (name: string, code: string) => {
    expect(code).toMatch(/^\d{6}$/);
    keep(name, code, [], new RegExp(`(?<![\\d.])${code}(?!\\d)`));
  };
  /** Recovery codes are typed in any case, with or without the dash; normalised is the same secret. */
  const keepRecoveryCodes = (name: string, codes: string[], from: LightMyRequestResponse) => {
    expect(codes).toHaveLength(10);
    for (const [i, code] of codes.entries()) {
      const [head, tail] = code.split('-');
      keep(`${name} ${i + 1}`, code, [from], new RegExp(`${escape(head!)}[\\s-]?${escape(tail!)}`, 'i'));
    }
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** A code of a later 30-second step than any used so far (each code is accepted once). */
  const nextCode = async (secret: string) => {
    t.clock.advance(30_000);
    return totpCode(secret, t.clock.now());
  };

  it('runs set-up, sign-ins, a wrong code, new codes and turning off', async () => {
    keep('password', TEST_PASSWORD);
    const login = (label: string, extra: object = {}) =>
      call(label, {
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: admin.email, password: TEST_PASSWORD, ...extra },
      });
    const secondStep = (label: string, payload: object) =>
      call(label, { method: 'POST', url: '/api/v1/auth/two-factor', payload });

    // An Admin without a second factor: signed in, but sent to set it up.
    const first = await login('login before set-up');
    expect(first.statusCode, first.body).toBe(200);
    const firstToken = first.json().access_token as string;
    keep('access token before set-up', firstToken, [first]);
    const gated = await call('files before set-up', {
      method: 'GET',
      url: '/api/v1/files',
      headers: bearer(firstToken),
    });
    expect(gated.json().code).toBe('two_factor_setup_required');

    // Set-up: the secret and its otpauth URL once, then the recovery codes once.
    const setup = await call('start set-up', {
      method: 'POST',
      url: '/api/v1/account/two-factor/totp',
      headers: bearer(firstToken),
    });
    expect(setup.statusCode, setup.body).toBe(200);
    const secret = setup.json().secret as string;
    keep('TOTP secret', secret, [setup], new RegExp(escape(secret), 'i'));
    keep('otpauth URL', setup.json().otpauth_url as string, [setup]);
    const wrongAtSetup = await totpCode(secret, new Date(t.clock.now().getTime() + 10 * MINUTE));
    keepCode('wrong code at set-up', wrongAtSetup);
    const refused = await call('confirm with a wrong code', {
      method: 'POST',
      url: '/api/v1/account/two-factor/totp/confirm',
      headers: bearer(firstToken),
      payload: { code: wrongAtSetup, current_password: TEST_PASSWORD },
    });
    expect(refused.statusCode).toBe(422);
    const confirmCode = await nextCode(secret);
    keepCode('code confirming the set-up', confirmCode);
    const confirmed = await call('confirm', {
      method: 'POST',
      url: '/api/v1/account/two-factor/totp/confirm',
      headers: bearer(firstToken),
      payload: { code: confirmCode, current_password: TEST_PASSWORD },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const recoveryCodes = confirmed.json().recovery_codes as string[];
    keepRecoveryCodes('recovery code', recoveryCodes, confirmed);

    const account = await call('account after set-up', {
      method: 'GET',
      url: '/api/v1/account',
      headers: bearer(firstToken),
    });
    expect(account.statusCode).toBe(200);
    expect(account.json().data.two_factor).toMatchObject({ totp: true, recovery_codes_left: 10 });
    expect(account.body).not.toMatch(new RegExp(escape(secret), 'i'));
    expect(account.body).not.toContain(confirmCode);
    for (const code of recoveryCodes) expect(account.body).not.toContain(code);

    const out = await call('sign out', {
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: bearer(firstToken),
    });
    expect(out.statusCode).toBe(204);

    // Password, then a wrong code, then the right one, trusting this device.
    const step = await login('password step');
    const challenge = step.json().challenge as string;
    keep('challenge', challenge, [step]);
    const wrongCode = await totpCode(secret, new Date(t.clock.now().getTime() + 10 * MINUTE));
    keepCode('wrong code', wrongCode);
    const wrong = await secondStep('wrong code', { challenge, code: wrongCode });
    expect(wrong.statusCode).toBe(401);
    const signInCode = await nextCode(secret);
    keepCode('sign-in code', signInCode);
    const signedIn = await secondStep('code, trusting the device', {
      challenge,
      code: signInCode,
      trust_device: true,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const codeToken = signedIn.json().access_token as string;
    const deviceToken = signedIn.json().device_token as string;
    keep('access token after a code', codeToken, [signedIn]);
    keep('device token', deviceToken, [signedIn]);
    await call('sign out', { method: 'POST', url: '/api/v1/auth/logout', headers: bearer(codeToken) });

    // The trusted device: the password is enough.
    const trusted = await login('password on the trusted device', { device_token: deviceToken });
    expect(trusted.statusCode, trusted.body).toBe(200);
    const trustedToken = trusted.json().access_token as string;
    keep('access token on the trusted device', trustedToken, [trusted]);
    await call('sign out', { method: 'POST', url: '/api/v1/auth/logout', headers: bearer(trustedToken) });

    // A recovery code instead of the app.
    const recoveryStep = await login('password step before a recovery code');
    const recoveryChallenge = recoveryStep.json().challenge as string;
    keep('challenge before a recovery code', recoveryChallenge, [recoveryStep]);
    const recovered = await secondStep('recovery code', {
      challenge: recoveryChallenge,
      recovery_code: recoveryCodes[0],
    });
    expect(recovered.statusCode, recovered.body).toBe(200);
    const recoveryToken = recovered.json().access_token as string;
    keep('access token after a recovery code', recoveryToken, [recovered]);

    // New recovery codes, then off with password and code.
    const renewed = await call('renew recovery codes', {
      method: 'POST',
      url: '/api/v1/account/two-factor/recovery-codes',
      headers: bearer(recoveryToken),
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    keepRecoveryCodes('renewed recovery code', renewed.json().recovery_codes as string[], renewed);
    const disableCode = await nextCode(secret);
    keepCode('code turning it off', disableCode);
    const disabled = await call('turn off', {
      method: 'DELETE',
      url: '/api/v1/account/two-factor',
      headers: bearer(recoveryToken),
      payload: { password: TEST_PASSWORD, code: disableCode },
    });
    expect(disabled.statusCode, disabled.body).toBe(204);
  });

  it('logged every request of the flow, without any of its secrets', async () => {
    const urls = new Set(lines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url));
    for (const url of [
      '/api/v1/auth/login',
      '/api/v1/auth/two-factor',
      '/api/v1/auth/logout',
      '/api/v1/account',
      '/api/v1/account/two-factor/totp',
      '/api/v1/account/two-factor/totp/confirm',
      '/api/v1/account/two-factor/recovery-codes',
      '/api/v1/account/two-factor',
    ]) {
      expect(urls, url).toContain(url);
    }
    expect(secrets.length).toBeGreaterThan(25);
    for (const line of lines) {
      for (const secret of secrets) expect(line, `${secret.name} im Log`).not.toMatch(secret.pattern);
    }
  });

  it('keeps them out of the audit log and the mails', async () => {
    const audit = await t.db.kysely.selectFrom('audit_log').selectAll().execute();
    expect(audit.map((row) => row.action)).toContain('account.two_factor_enabled');
    const mails = await t.flushMail();
    expect(mails.length).toBeGreaterThan(0);
    const outputs = [
      ...audit.map((row) => ({ what: `Protokoll ${row.action}`, text: JSON.stringify(row) })),
      ...mails.map((mail) => ({ what: `E-Mail „${mail.subject}“`, text: JSON.stringify(mail) })),
    ];
    for (const { what, text } of outputs) {
      for (const secret of secrets) expect(text, `${secret.name}: ${what}`).not.toMatch(secret.pattern);
    }
  });

  it('returns each only in the answer that hands it out', () => {
    expect(responses.length).toBeGreaterThan(15);
    for (const { label, res } of responses) {
      const text = `${JSON.stringify(res.headers)}\n${res.body}`;
      for (const secret of secrets) {
        if (secret.allowedIn.has(res)) expect(text, `${secret.name}: ${label}`).toMatch(secret.pattern);
        else expect(text, `${secret.name}: ${label}`).not.toMatch(secret.pattern);
      }
    }
  });
});
