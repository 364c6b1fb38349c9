import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { serverWithHealthProbe } from '../../../src/features/health/health-probe.ts';

describe('GET /api/v1/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers ok without authentication', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('sends the security headers on every response', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers unknown API paths with a German 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/gibt-es-nicht' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Nicht gefunden.' });
  });

  it('creates roles and the protected folders on first start', async () => {
    const roles = await t.db.kysely.selectFrom('roles').select('name').orderBy('id').execute();
    expect(roles.map((r) => r.name)).toEqual(['Admin', 'Super-Admin', 'Aufsichtsrat', 'Vertreter']);
    const folders = await t.db.kysely
      .selectFrom('folders')
      .select(['id', 'breadcrumb'])
      .orderBy('id')
      .execute();
    expect(folders).toEqual([
      { id: 1, breadcrumb: '/' },
      { id: 2, breadcrumb: '/Aufsichtsrat' },
      { id: 3, breadcrumb: '/Mitgliedervertreter' },
      { id: 4, breadcrumb: '/Allgemein' },
    ]);
  });
});

describe('the health probe before Fastify (decision 155)', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await buildTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  /** Headers that belong to the connection, not to the answer. */
  const answerHeaders = (headers: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(headers).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)),
    );

  it('answers a real GET exactly as the route does', async () => {
    const routed = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    const res = await fetch(`${url}/api/v1/health`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(routed.body);
    expect(answerHeaders(Object.fromEntries(res.headers))).toEqual(answerHeaders(routed.headers));
  });

  it('leaves everything else to Fastify: a query string, HEAD, other paths', async () => {
    const withQuery = await fetch(`${url}/api/v1/health?x=1`);
    expect(withQuery.status).toBe(200);
    expect(await withQuery.json()).toEqual({ status: 'ok' });
    expect((await fetch(`${url}/api/v1/health`, { method: 'HEAD' })).status).toBe(200);
    const post = await fetch(`${url}/api/v1/health`, { method: 'POST' });
    expect(post.status).toBe(404);
    expect(await post.json()).toEqual({ message: 'Nicht gefunden.' });
    expect((await fetch(`${url}/api/v1/account`)).status).toBe(401);
  });
});

describe('serverWithHealthProbe', () => {
  it('answers GET /api/v1/health itself and hands everything else, and everything once closing, to Fastify', async () => {
    let closing = false;
    const handed: string[] = [];
    const server = serverWithHealthProbe(() => closing)(
      (request, response) => {
        handed.push(`${request.method} ${request.url}`);
        response.writeHead(204);
        response.end();
      },
      { keepAliveTimeout: 1000 },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    try {
      const probe = await fetch(`${base}/api/v1/health`);
      expect(probe.status).toBe(200);
      expect(await probe.json()).toEqual({ status: 'ok' });
      expect(probe.headers.get('x-content-type-options')).toBe('nosniff');
      expect(server.keepAliveTimeout).toBe(1000);
      expect((await fetch(`${base}/api/v1/health?full=1`)).status).toBe(204);
      expect((await fetch(`${base}/api/v1/health`, { method: 'HEAD' })).status).toBe(204);
      closing = true;
      expect((await fetch(`${base}/api/v1/health`)).status).toBe(204);
      expect(handed).toEqual(['GET /api/v1/health?full=1', 'HEAD /api/v1/health', 'GET /api/v1/health']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
