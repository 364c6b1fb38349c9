import { expect } from 'vitest';
import { totpCode } from '../../src/features/two-factor/totp.ts';
import type { TestApp } from './build-test-app.ts';
import { createUser, TEST_PASSWORD, type TestUser } from './factories.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

/** A user with an active authenticator app: its seed and recovery codes. */
export interface TotpUser extends TestUser {
  secret: string;
  recoveryCodes: string[];
}

/** The current code; moves the clock on a step first, as each code is accepted once. */
export async function freshCode(t: TestApp, secret: string): Promise<string> {
  t.clock.advance(30_000);
  return totpCode(secret, t.clock.now());
}

export async function createTotpUser(
  t: TestApp,
  roles: Parameters<typeof createUser>[1] = {},
): Promise<TotpUser> {
  const user = await createUser(t, roles);
  const setup = await t.app.inject({
    method: 'POST',
    url: '/api/v1/account/two-factor/totp',
    headers: user.headers,
  });
  expect(setup.statusCode, setup.body).toBe(200);
  const secret = setup.json().secret as string;
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/api/v1/account/two-factor/totp/confirm',
    headers: user.headers,
    payload: { code: await freshCode(t, secret), current_password: TEST_PASSWORD },
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { ...user, secret, recoveryCodes: confirmed.json().recovery_codes };
}

/** The interim challenge of the first sign-in step. */
export async function challengeOf(t: TestApp, user: TestUser): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: user.email, password: TEST_PASSWORD },
  });
  expect(res.json().two_factor_required, res.body).toBe(true);
  return res.json().challenge as string;
}

/** A user whose second factor is a passkey held by `device` (a software authenticator). */
export interface PasskeyUser extends TestUser {
  device: SoftAuthenticator;
  recoveryCodes: string[];
}

/** Registers a passkey on `device` for the user (the test app's PUBLIC_URL is the origin). */
export async function addPasskey(t: TestApp, user: TestUser, device: SoftAuthenticator, name = 'Passkey') {
  const options = await t.app.inject({
    method: 'POST',
    url: '/api/v1/account/two-factor/webauthn/registration-options',
    headers: user.headers,
    payload: { current_password: TEST_PASSWORD },
  });
  expect(options.statusCode, options.body).toBe(200);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/account/two-factor/webauthn/registration',
    headers: user.headers,
    payload: { name, response: device.register(options.json()) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { passkey: { id: number }; recovery_codes: string[] };
}

export async function createPasskeyUser(
  t: TestApp,
  roles: Parameters<typeof createUser>[1] = {},
): Promise<PasskeyUser> {
  const user = await createUser(t, roles);
  const device = new SoftAuthenticator(t.config.PUBLIC_URL);
  const { recovery_codes } = await addPasskey(t, user, device);
  return { ...user, device, recoveryCodes: recovery_codes };
}

/** The sign-in's passkey prompt (options) for the interim challenge. */
export async function passkeyPromptOf(t: TestApp, challenge: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/two-factor/webauthn/options',
    payload: { challenge },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
