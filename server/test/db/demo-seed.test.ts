import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';

describe('DEMO=1 on an empty database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { DEMO: '1' } });
  });
  afterAll(() => t.close());

  it('seeds one account per role whose printed password signs in', async () => {
    expect(t.app.demoAccounts.map((account) => account.roles[0])).toEqual([
      'Admin',
      'Aufsichtsrat',
      'Vertreter',
    ]);
    const vertreter = t.app.demoAccounts.find((account) => account.roles.includes('Vertreter'))!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: vertreter.email, password: vertreter.password },
    });
    expect(res.statusCode).toBe(200);
    const token = res.json().access_token as string;
    const tree = await t.app.inject({
      method: 'GET',
      url: '/api/v1/tree',
      headers: { authorization: `Bearer ${token}` },
    });
    const text = tree.body;
    expect(text).toContain('Vertreterversammlung 2026');
    expect(text).not.toContain('Sitzungen 2026');
    const events = await t.app.inject({
      method: 'GET',
      url: '/api/v1/events',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(
      events
        .json()
        .data.map((e: { title: string }) => e.title)
        .sort(),
    ).toEqual(['Informationsabend für neue Vertreter', 'Vertreterversammlung']);
  });

  it('stores downloadable PDF documents', async () => {
    const file = await t.db.kysely
      .selectFrom('files')
      .selectAll()
      .where('title', '=', 'Satzung der Genossenschaft')
      .executeTakeFirstOrThrow();
    const admin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'admin@example.org', password: 'Start-Passwort-123' },
    });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/download/${file.download_key}`,
      headers: { authorization: `Bearer ${admin.json().access_token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(res.rawPayload.length).toBe(file.size_bytes);
  });

  it('does not seed again on a database that has data', async () => {
    const again = await buildTestApp({ env: { DEMO: '1' }, db: t.db });
    try {
      expect(again.app.demoAccounts).toEqual([]);
    } finally {
      // Only the app: the database belongs to the first test app.
      await again.app.close();
      await rm(again.dataDir, { recursive: true, force: true });
    }
  });
});
