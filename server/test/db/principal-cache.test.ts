import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../src/clock.ts';
import { openDatabase, migrateToLatest, type Db } from '../../src/db/database.ts';
import { PrincipalCache } from '../../src/db/principal-cache.ts';
import { QueryCounter } from '../../src/db/query-counter.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createRoleUsers, roleIds } from '../support/factories.ts';

/**
 * The principal cache (decision 137): a token's rows are reused for a second, and
 * every write to what a principal is read from empties the cache, so no logout, role change or
 * revoked key is late.
 */
describe('PrincipalCache', () => {
  it('keeps an entry for its time, and not one whose look-up overlapped a write', () => {
    let now = 0;
    const cache = new PrincipalCache<string>(1_000, 10, () => now);
    let told = 0;
    cache.onInvalidate = () => (told += 1);
    const mark = cache.mark();
    cache.set('a', 'A', mark);
    expect(cache.get('a')).toBe('A');
    now = 999;
    expect(cache.get('a')).toBe('A');
    now = 1_000;
    expect(cache.get('a')).toBeUndefined();

    const before = cache.mark();
    cache.invalidate();
    cache.set('b', 'B', before);
    expect(cache.get('b')).toBeUndefined();
    expect(told).toBe(1);
    cache.set('b', 'B', cache.mark());
    cache.invalidate(true);
    expect(cache.get('b')).toBeUndefined();
    // What another instance said is not passed on again.
    expect(told).toBe(1);
  });

  it('keeps nothing with a time of 0 and stays within its size', () => {
    const off = new PrincipalCache<string>(0);
    off.set('a', 'A', off.mark());
    expect(off.get('a')).toBeUndefined();
    const small = new PrincipalCache<number>(1_000, 3);
    for (let i = 0; i < 4; i += 1) small.set(String(i), i, small.mark());
    expect([0, 1, 2, 3].filter((i) => small.get(String(i)) !== undefined)).toEqual([3]);
  });
});

describe('invalidation by writes', () => {
  let db: Db;
  beforeAll(async () => {
    db = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(db);
  });
  afterAll(() => db.close());

  const cached = () => {
    db.principals.set('token', 'principal', db.principals.mark());
    return () => db.principals.get('token');
  };

  it('empties the cache on a write to a principal table, not on others or on reads', async () => {
    const now = new Date().toISOString();
    let entry = cached();
    await db.kysely.selectFrom('users').selectAll().execute();
    await db.kysely
      .insertInto('folders')
      .values({ parent_id: null, title: 'X', breadcrumb: '/X', created_at: now, updated_at: now })
      .execute();
    expect(entry()).toBe('principal');

    const user = await db.kysely
      .insertInto('users')
      .values({
        title: 'Frau',
        firstname: 'A',
        lastname: 'B',
        email: 'a@example.org',
        password_hash: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(entry()).toBeUndefined();
    for (const write of [
      () =>
        db.kysely
          .insertInto('sessions')
          .values({ user_id: user.id, token_hash: 'h', created_at: now, last_seen_at: now })
          .execute(),
      () => db.kysely.updateTable('sessions').set({ last_seen_at: now }).execute(),
      async () => {
        const role = await db.kysely
          .insertInto('roles')
          .values({ name: 'Testrolle' })
          .returning('id')
          .executeTakeFirstOrThrow();
        db.principals.set('token', 'principal', db.principals.mark());
        await db.kysely.insertInto('user_roles').values({ user_id: user.id, role_id: role.id }).execute();
      },
      () => db.kysely.deleteFrom('user_roles').where('user_id', '=', user.id).execute(),
      () =>
        db.kysely.updateTable('roles').set({ name: 'Vertreter' }).where('name', '=', 'Vertreter').execute(),
      () => db.kysely.deleteFrom('api_keys').execute(),
      () => db.kysely.deleteFrom('sessions').execute(),
    ]) {
      entry = cached();
      await write();
      expect(entry()).toBeUndefined();
    }
  });

  it('empties it again when a transaction with such a write ends', async () => {
    let entry: () => unknown = () => undefined;
    await db.kysely.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ firstname: 'C' }).execute();
      // Read while the transaction is open (PostgreSQL: from another connection, the old row).
      entry = cached();
    });
    expect(entry()).toBeUndefined();
  });
});

describe('the auth hook with the cache', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
  });
  afterAll(() => t?.close());

  const account = (headers: { authorization: string }) =>
    t.app.inject({ method: 'GET', url: '/api/v1/account', headers });

  it('reads a token’s rows once within the second', async () => {
    await account(users.vertreter.headers);
    const counter = new QueryCounter();
    const original = t.db.kysely;
    t.db.kysely = original.withPlugin(counter);
    try {
      expect((await account(users.vertreter.headers)).statusCode).toBe(200);
    } finally {
      t.db.kysely = original;
    }
    // No session, user or role query; without a second factor, no status query either.
    expect(counter.count).toBe(0);
  });

  it('still ends an idle or too old session on a cached hit', async () => {
    const user = users.aufsichtsrat;
    expect((await account(user.headers)).statusCode).toBe(200);
    // The idle limit (60 minutes) has passed a minute ago: the cached rows must not keep it alive.
    t.clock.advance(HOUR + MINUTE);
    expect((await account(user.headers)).statusCode).toBe(401);
    t.clock.advance(-HOUR - MINUTE);
  });

  it('sees a removed role, a logout and a deleted account with the next request', async () => {
    const { admin, superAdmin } = users;
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: admin.headers })).statusCode,
    ).toBe(200);
    const [vertreter] = await roleIds(t, ['Vertreter']);
    const current = (
      await t.app.inject({ method: 'GET', url: `/api/v1/user/${admin.id}`, headers: superAdmin.headers })
    ).json().data as { title: string; firstname: string; lastname: string; email: string };
    const { title, firstname, lastname, email } = current;
    const demote = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${admin.id}`,
      headers: superAdmin.headers,
      payload: { title, firstname, lastname, email, roles: [vertreter] },
    });
    expect(demote.statusCode, demote.body).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: admin.headers })).statusCode,
    ).toBe(403);

    expect((await account(admin.headers)).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: admin.headers })).statusCode,
    ).toBe(204);
    expect((await account(admin.headers)).statusCode).toBe(401);
  });
});
