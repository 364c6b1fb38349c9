import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES } from '@gremienportal/contracts/api-keys';
import { DAY, MINUTE } from '../../../src/clock.ts';
import { hashToken } from '../../../src/credentials/tokens.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, roleIds, sessionFor, type TestUser } from '../../support/factories.ts';
import { dataUrl, pdfBytes } from '../../support/files.fixtures.ts';

/**
 * API-Schlüssel for technical accounts (decision 136): a Super-Admin issues a key with
 * scopes and a validity; the token is shown once and stored as SHA-256 only; the key acts with the
 * issuer's current rights narrowed to its scopes, is named in every audit entry, and stops at once
 * when it expires, is revoked, or its issuer loses the rights or the account.
 */
describe('API-Schlüssel', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  async function issue(by: TestUser, payload: Record<string, unknown>) {
    return t.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: by.headers, payload });
  }
  async function issued(by: TestUser, scopes: string[], name = 'Mitgliederverwaltung', validDays?: number) {
    const res = await issue(by, { name, scopes, ...(validDays ? { valid_days: validDays } : {}) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; token: string; expires_at: string; scopes: string[] };
  }
  const lastAudit = () =>
    t.db.kysely.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
  });
  afterAll(() => t?.close());

  it('is issued by a Super-Admin only, shown once and stored as its hash', async () => {
    for (const who of [users.admin, users.vertreter]) {
      const res = await issue(who, { name: 'Import', scopes: ['nutzer:lesen'] });
      expect(res.statusCode).toBe(403);
    }
    expect((await issue(users.admin, { name: 'Import', scopes: ['nutzer:lesen'] })).json().message).toBe(
      API_KEY_MESSAGES.superAdminOnly,
    );
    const res = await issue(users.superAdmin, {
      name: 'Import',
      scopes: ['nutzer:schreiben', 'nutzer:lesen'],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const key = res.json().data;
    expect(res.json().message).toBe(API_KEY_MESSAGES.created);
    expect(key.token).toMatch(/^gpk_[\w-]{43}$/);
    // The contract's order, the default validity of a year.
    expect(key.scopes).toEqual(['nutzer:lesen', 'nutzer:schreiben']);
    expect(new Date(key.expires_at).getTime() - t.clock.now().getTime()).toBe(365 * DAY);
    const row = await t.db.kysely
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(key.token));
    expect(JSON.stringify(row)).not.toContain(key.token.slice(4));

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/api-keys',
      headers: users.superAdmin.headers,
    });
    const listed = (list.json().data as { id: number }[]).find((item) => item.id === key.id);
    expect(listed).toMatchObject({ name: 'Import', last_used_at: null });
    expect(list.body).not.toContain(key.token.slice(4));
    expect(await lastAudit()).toMatchObject({
      action: 'api_key.created',
      object_type: 'api_key',
      object_id: key.id,
      object_label: 'Import',
    });
    expect((await lastAudit()).details).not.toContain(key.token.slice(4));
  });

  it('refuses bad input with German messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ name: 'AB', scopes: ['nutzer:lesen'] }, 'name', 'mindestens 3'],
      [{ name: 'Import', scopes: [] }, 'scopes', API_KEY_MESSAGES.scopesRequired],
      [{ name: 'Import' }, 'scopes', API_KEY_MESSAGES.scopesRequired],
      [{ name: 'Import', scopes: ['alles'] }, 'scopes', API_KEY_MESSAGES.scopeInvalid],
      [
        { name: 'Import', scopes: ['nutzer:lesen', 'nutzer:lesen'] },
        'scopes',
        API_KEY_MESSAGES.scopesDuplicate,
      ],
      [
        { name: 'Import', scopes: ['nutzer:lesen'], valid_days: 731 },
        'valid_days',
        API_KEY_MESSAGES.validDays,
      ],
      [{ name: 'Import', scopes: ['nutzer:lesen'], valid_days: 0 }, 'valid_days', API_KEY_MESSAGES.validDays],
      [
        { name: 'Import', scopes: ['nutzer:lesen'], valid_days: 1.5 },
        'valid_days',
        API_KEY_MESSAGES.validDays,
      ],
    ];
    for (const [payload, field, text] of cases) {
      const res = await issue(users.superAdmin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      const body = res.json() as { message: string; errors?: Record<string, string[]> };
      expect(body.message.length).toBeGreaterThan(0);
      // An entry of a list is named with its index (`scopes.0`).
      const messages = Object.entries(body.errors ?? {})
        .filter(([key]) => key === field || key.startsWith(`${field}.`))
        .flatMap(([, list]) => list);
      if (field) expect(messages.join(' '), JSON.stringify(payload)).toContain(text);
    }
    // A field the contract does not know, such as a self-chosen token, is refused by name (decision 147).
    const own = await issue(users.superAdmin, { name: 'Import', scopes: ['nutzer:lesen'], token: 'eigener' });
    expect(own.statusCode).toBe(422);
    expect(own.json().errors).toEqual({ token: ['Dieses Feld ist unbekannt.'] });
    const missing = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/api-keys/2147483000',
      headers: users.superAdmin.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(API_KEY_MESSAGES.notFound);
  });

  it('acts as its issuer within its scopes, names itself in the audit log and never on personal routes', async () => {
    const key = await issued(users.superAdmin, ['nutzer:lesen', 'nutzer:schreiben'], 'Mitgliederverwaltung');
    const list = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(key.token) });
    expect(list.statusCode).toBe(200);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: bearer(key.token),
      payload: {
        title: 'Herr',
        firstname: 'Neu',
        lastname: 'Gewählt',
        email: `gewaehlt-${Date.now()}@example.org`,
        roles: ['Vertreter'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await lastAudit()).actor_label).toMatch(/ über API-Schlüssel „Mitgliederverwaltung“$/);
    expect((await lastAudit()).actor_id).toBe(users.superAdmin.id);
    // Outside its scopes, and on routes no key may call, the same 403.
    for (const [method, url] of [
      ['GET', '/api/v1/tree'],
      ['GET', '/api/v1/audit'],
      ['GET', '/api/v1/account'],
      ['POST', '/api/v1/auth/logout'],
      ['GET', '/api/v1/api-keys'],
      ['GET', '/api/v1/news'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(key.token) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(API_KEY_MESSAGES.outOfScope);
    }
    const used = await t.db.kysely
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(used.last_used_at).toBe(t.clock.now().toISOString());
  });

  it('reads documents without touching the issuer’s read state, each download audited', async () => {
    const root = await t.db.kysely
      .selectFrom('folders')
      .select('id')
      .where('parent_id', 'is', null)
      .executeTakeFirstOrThrow();
    const folder = await t.app.inject({
      method: 'POST',
      url: '/api/v1/folders',
      headers: users.admin.headers,
      payload: { folder_id: root.id, title: 'Archiv' },
    });
    expect(folder.statusCode, folder.body).toBe(201);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/files',
      headers: users.admin.headers,
      payload: {
        title: 'Archivdokument',
        file: dataUrl(pdfBytes('Archivdokument')),
        permissions: ['Aufsichtsrat'],
        folder_id: folder.json().folder.id,
      },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const file = upload.json().file as { id: number; external: string };
    const key = await issued(users.superAdmin, ['inhalte:lesen'], 'Archiv');
    for (let i = 0; i < 2; i += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/download/${file.external}`,
        headers: bearer(key.token),
      });
      expect(res.statusCode).toBe(200);
    }
    const downloads = await t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('object_type', '=', 'file')
      .where('object_id', '=', file.id)
      .where('actor_label', 'like', '%API-Schlüssel „Archiv“%')
      .execute();
    expect(downloads.map((row) => row.action)).toEqual(['file.downloaded', 'file.downloaded']);
    const reads = await t.db.kysely
      .selectFrom('file_reads')
      .selectAll()
      .where('user_id', '=', users.superAdmin.id)
      .execute();
    expect(reads).toEqual([]);
    const write = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/files/${file.id}`,
      headers: bearer(key.token),
    });
    expect(write.statusCode).toBe(403);
  });

  it('stops when it expires, is revoked, or its issuer loses the rights or the account', async () => {
    const issuer = await createUser(t, { roles: ['Super-Admin'] });
    const expiring = await issued(issuer, ['nutzer:lesen'], 'Kurz', 1);
    const revoked = await issued(issuer, ['nutzer:lesen'], 'Widerrufen');
    const demoted = await issued(issuer, ['nutzer:lesen'], 'Herabgestuft');
    const call = (token: string) =>
      t.app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer(token) });

    // A Super-Admin other than the issuer may revoke it; it stops at once.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/api-keys/${revoked.id}`,
      headers: users.superAdmin.headers,
    });
    expect(del.statusCode).toBe(204);
    expect(await lastAudit()).toMatchObject({
      action: 'api_key.revoked',
      object_id: revoked.id,
      object_label: 'Widerrufen',
    });
    expect((await call(revoked.token)).statusCode).toBe(401);

    t.clock.advance(DAY - MINUTE);
    expect((await call(expiring.token)).statusCode).toBe(200);
    t.clock.advance(MINUTE);
    expect((await call(expiring.token)).statusCode).toBe(401);
    // No idle limit: a key used once a month keeps working.
    expect((await call(demoted.token)).statusCode).toBe(200);

    // The issuer becomes a Vertreter: the key has a Vertreter's rights, no more.
    const [vertreter] = await roleIds(t, ['Vertreter']);
    await t.db.kysely.deleteFrom('user_roles').where('user_id', '=', issuer.id).execute();
    await t.db.kysely.insertInto('user_roles').values({ user_id: issuer.id, role_id: vertreter! }).execute();
    expect((await call(demoted.token)).statusCode).toBe(403);

    // A day has passed: the other Super-Admin signs in again.
    const other = { authorization: `Bearer ${await sessionFor(t, users.superAdmin.id)}` };
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/v1/user/${issuer.id}`, headers: other });
    expect(gone.statusCode, gone.body).toBe(204);
    expect((await call(demoted.token)).statusCode).toBe(401);
    const left = await t.db.kysely
      .selectFrom('api_keys')
      .select('id')
      .where('user_id', '=', issuer.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('answers an unknown key like an unknown session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer('gpk_unbekannt') });
    const session = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: bearer('unbekannt') });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe(session.body);
  });
});
