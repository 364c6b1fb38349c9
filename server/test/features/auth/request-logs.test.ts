import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, TEST_PASSWORD } from '../../support/factories.ts';
import { configSchema } from '../../../src/config.ts';
import { loggerOptions } from '../../../src/plugins/logging.ts';

/** Request logs go to operators and log services: they must carry no password and no token. */
describe('request logs', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    });
    const options = loggerOptions(configSchema.parse({ LOG_LEVEL: 'info' })) as pino.LoggerOptions;
    t = await buildTestApp({ logger: pino(options, stream) });
  });
  afterAll(() => t.close());

  it('hold no password, access token or reset token', async () => {
    const user = await createUser(t);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    const accessToken = login.json().access_token as string;
    await t.app.inject({
      method: 'GET',
      url: '/api/v1/account',
      headers: { authorization: `Bearer ${accessToken}` },
    });

    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: user.email },
    });
    const mail = (await t.flushMail()).find((m) => m.to === user.email)!;
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    const resetToken = link.searchParams.get('token')!;
    // The browser opens the page with the token in its query string, then posts it.
    await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    const newPassword = 'Neues-Kennwort-2026';
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      payload: {
        id: link.searchParams.get('id'),
        token: resetToken,
        password: newPassword,
        password_confirmation: newPassword,
      },
    });
    expect(reset.statusCode).toBe(200);

    const log = lines.join('\n');
    // The requests were logged, so the absence below means something.
    expect(lines.some((line) => JSON.parse(line).req?.url === '/reset-password')).toBe(true);
    expect(lines.some((line) => JSON.parse(line).req?.url === '/api/v1/auth/login')).toBe(true);
    expect(lines.some((line) => JSON.parse(line).req?.url === '/api/v1/account')).toBe(true);
    for (const secret of [TEST_PASSWORD, newPassword, accessToken, resetToken]) {
      expect(log).not.toContain(secret);
    }
  });
});
