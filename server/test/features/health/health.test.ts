import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';

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
