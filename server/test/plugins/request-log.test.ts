import { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config.ts';
import { loggedPath, loggerOptions, RequestLogger } from '../../src/plugins/logging.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, type TestUser } from '../support/factories.ts';

/**
 * One line per answered request (decision 112), written without a child logger per request
 * (decision 137): the line keeps the request id, a route's own level still holds, and whatever a
 * request logs itself still carries its id.
 */
describe('the request log', () => {
  const lines: Record<string, unknown>[] = [];
  let t: TestApp;
  let member: TestUser;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        callback();
      },
    });
    const config = configSchema.parse({ LOG_LEVEL: 'info' });
    t = await buildTestApp({ logger: pino(loggerOptions(config), stream) });
    member = await createUser(t, { roles: ['Vertreter'] });
  });
  afterAll(() => t.close());

  const linesAbout = (url: string) =>
    lines.filter((line) => (line.req as { url?: string } | undefined)?.url === url);

  it('writes one line with the request id, path, address, status and duration', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/account?x=1', headers: member.headers });
    expect(res.statusCode).toBe(200);
    const [line, ...more] = linesAbout('/api/v1/account');
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: '/api/v1/account', ip: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(line!.reqId).toBe((line!.req as { id: string }).id);
    expect(typeof line!.responseTime).toBe('number');
    expect(JSON.stringify(line)).not.toContain(member.token);
  });

  it('keeps a route level: the health check writes no line', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    expect(linesAbout('/api/v1/health')).toEqual([]);
  });

  it('gives what a request logs itself its id, through a child made only then', () => {
    const written: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        written.push(JSON.parse(chunk.toString('utf8')));
        callback();
      },
    });
    const parent = pino({ level: 'info' }, stream);
    const quiet = new RequestLogger(parent, { reqId: 'req-1' }, { level: 'warn' });
    quiet.info('nicht geschrieben');
    const request = { id: 'req-1', method: 'GET', url: '/api/v1/health', ip: '::1' } as FastifyRequest;
    const reply = { statusCode: 200, elapsedTime: 1.5 } as FastifyReply;
    quiet.completed(request, reply);
    expect(written).toEqual([]);
    quiet.warn({ detail: 1 }, 'geschrieben');
    expect(written).toMatchObject([{ level: 40, reqId: 'req-1', detail: 1, msg: 'geschrieben' }]);
    expect(quiet.level).toBe('warn');
    quiet.level = 'info';
    quiet.info('jetzt auch');
    expect(written.at(-1)).toMatchObject({ level: 30, reqId: 'req-1', msg: 'jetzt auch' });
    quiet.completed(request, reply);
    expect(written.at(-1)).toMatchObject({
      level: 30,
      reqId: 'req-1',
      req: { id: 'req-1', method: 'GET', url: '/api/v1/health', ip: '::1' },
      res: { statusCode: 200 },
      responseTime: 1.5,
      msg: 'request completed',
    });
  });

  it('hides the same paths with its quick test as with the replacements alone', () => {
    const replaced = (url: string) =>
      url
        .split('?')[0]!
        .replace(/(calendar\/)[^/]*/gi, '$1[verborgen]')
        .replace(/[A-Za-z0-9_-]{32,}/g, '[verborgen]');
    for (const url of [
      '/api/v1/account',
      '/api/v1/account?token=q7Vd0nX3_kR9-ZpLw2YtB8cHs6UeGm1AfJiOvN4xK5a',
      '/api/v1/CALENDAR/abc.ics',
      '/calendar',
      `/x/${'a'.repeat(31)}/y`,
      `/x/${'a'.repeat(32)}`,
      `/x/${'A_-9'.repeat(10)}?q`,
      '',
      '?',
    ])
      expect(loggedPath(url)).toBe(replaced(url));
  });
});
