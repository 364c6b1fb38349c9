import { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, type TestUser } from '../support/factories.ts';
import { configSchema } from '../../src/config.ts';
import { loggedPath, loggerOptions } from '../../src/plugins/logging.ts';

/**
 * The calendar feed's token is in its address (decision 130): the request log at its most verbose
 * level must not show it, whatever form the address takes (exact, mis-cased, with a query, with a
 * broken escape the router refuses, after revocation), nor the audit log or any answer but the one
 * that hands it out.
 */
describe('calendar feed: the token stays out of logs and other answers', () => {
  const lines: string[] = [];
  const responses: { label: string; res: LightMyRequestResponse }[] = [];
  let t: TestApp;
  let member: TestUser;
  let token: string;
  let created: LightMyRequestResponse;

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    });
    const env = { LOG_LEVEL: 'trace' };
    const options = loggerOptions(configSchema.parse(env)) as pino.LoggerOptions;
    expect(options.level).toBe('trace');
    t = await buildTestApp({ env, logger: pino(options, stream) });
    member = await createUser(t, { roles: ['Vertreter'] });
  });
  afterAll(() => t?.close());

  async function call(label: string, options: InjectOptions): Promise<LightMyRequestResponse> {
    const res = await t.app.inject(options);
    responses.push({ label, res });
    return res;
  }

  it('runs creation, fetches in every form, revocation', async () => {
    created = await call('create', {
      method: 'POST',
      url: '/api/v1/account/calendar-feed',
      headers: member.headers,
    });
    expect(created.statusCode, created.body).toBe(201);
    token = /\/calendar\/([^/]+)\.ics$/.exec(created.json().data.url as string)![1]!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const path = `/api/v1/calendar/${token}.ics`;
    expect((await call('fetch', { method: 'GET', url: path })).statusCode).toBe(200);
    expect((await call('head', { method: 'HEAD', url: path })).statusCode).toBe(200);
    expect((await call('query', { method: 'GET', url: `${path}?token=${token}` })).statusCode).toBe(200);
    for (const [label, url] of [
      ['mis-cased', `/API/V1/CALENDAR/${token}.ICS`],
      ['broken escape', `/api/v1/calendar/${token}%E0%A4%A.ics`],
      ['double slash', `/api/v1//calendar/${token}.ics`],
      ['elsewhere', `/api/v1/events/${token}`],
      ['web route', `/kalender/${token}`],
    ] as const) {
      const res = await call(label, { method: 'GET', url });
      expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, label).toBeLessThan(500);
    }
    expect(
      (
        await call('status', {
          method: 'GET',
          url: '/api/v1/account/calendar-feed',
          headers: member.headers,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await call('revoke', {
          method: 'DELETE',
          url: '/api/v1/account/calendar-feed',
          headers: member.headers,
        })
      ).statusCode,
    ).toBe(204);
    expect((await call('after revocation', { method: 'GET', url: path })).statusCode).toBe(404);
  });

  it('logged every request of the run, none with the token', () => {
    const urls = lines.map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url);
    // Fetch, HEAD, with a query, after revocation; the broken escape is refused by the router
    // before anything is logged.
    expect(urls.filter((url) => url === '/api/v1/calendar/[verborgen]')).toHaveLength(4);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/v1/account/calendar-feed',
        '/API/V1/CALENDAR/[verborgen]',
        '/api/v1//calendar/[verborgen]',
        '/api/v1/events/[verborgen]',
        '/kalender/[verborgen]',
      ]),
    );
    const fragment = token.slice(8, 24);
    for (const line of lines) {
      expect(line, 'Token im Log').not.toContain(token);
      expect(line, 'Teil des Tokens im Log').not.toContain(fragment);
    }
  });

  it('keeps it out of the audit log and the mails', async () => {
    const audit = await t.db.kysely.selectFrom('audit_log').selectAll().execute();
    expect(audit.map((row) => row.action)).toEqual(
      expect.arrayContaining(['account.calendar_feed_created', 'account.calendar_feed_revoked']),
    );
    const mails = await t.flushMail();
    for (const text of [...audit, ...mails].map((item) => JSON.stringify(item))) {
      expect(text).not.toContain(token);
    }
  });

  it('returns it only in the answer that hands it out', () => {
    for (const { label, res } of responses) {
      const text = `${JSON.stringify(res.headers)}\n${res.body}`;
      if (res === created) expect(text, label).toContain(token);
      else expect(text, label).not.toContain(token);
    }
  });

  it('hides the token in any path form', () => {
    const sample = 'x'.repeat(8) + 'Ab9_-'.repeat(7);
    expect(loggedPath(`/api/v1/calendar/${sample}.ics?a=b`)).toBe('/api/v1/calendar/[verborgen]');
    expect(loggedPath(`/Api/V1/Calendar/${sample}`)).toBe('/Api/V1/Calendar/[verborgen]');
    expect(loggedPath(`/irgendwo/${sample}/weiter`)).toBe('/irgendwo/[verborgen]/weiter');
    // Ordinary paths stay readable.
    expect(loggedPath('/api/v1/download/AAAAAAAAAAAAAAAAAAAAAA?x=1')).toBe(
      '/api/v1/download/AAAAAAAAAAAAAAAAAAAAAA',
    );
    expect(loggedPath('/api/v1/files/12/versions/3/download')).toBe('/api/v1/files/12/versions/3/download');
  });
});
