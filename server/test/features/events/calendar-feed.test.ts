import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '@gremienportal/contracts/common';
import type { PortalEvent } from '@gremienportal/contracts/events';
import { MINUTE } from '../../../src/clock.ts';
import { hashToken } from '../../../src/credentials/tokens.ts';
import { FEED_FAILURES_PER_CLIENT } from '../../../src/features/events/calendar-feed.service.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, roleIds, type TestUser } from '../../support/factories.ts';
import { childrenOf, readCalendar, value } from '../../support/icalendar-reader.ts';

/**
 * The personal calendar feed (decision 130): one address per member, its token stored
 * only as SHA-256, replaced or revoked from the account page; it lists what the member may see
 * now, from 90 days back on, with deleted events as cancelled, and opens nothing else.
 */
describe('personal calendar feed', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  const events = {} as Record<'vt' | 'ar' | 'old' | 'recent' | 'trashedVt' | 'trashedAr', PortalEvent>;

  // The test clock stands at 2026-11-21; the feed starts at 2026-08-23.
  async function createEvent(title: string, roles: RoleName[], start: string, end: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/events',
      headers: users.admin.headers,
      payload: { title, roles, start, end, location: 'Saal', description: 'Tagesordnung folgt.' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().event as PortalEvent;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    events.vt = await createEvent('Vertreter-Sitzung', ['Vertreter'], '2027-01-12T18:00', '2027-01-12T20:00');
    events.ar = await createEvent('AR-Klausur', ['Aufsichtsrat'], '2027-01-13T18:00', '2027-01-13T20:00');
    events.old = await createEvent('Alte Sitzung', ['Vertreter'], '2026-08-01T18:00', '2026-08-01T20:00');
    events.recent = await createEvent(
      'Letzte Sitzung',
      ['Vertreter'],
      '2026-10-20T18:00',
      '2026-10-20T20:00',
    );
    events.trashedVt = await createEvent(
      'Abgesagt VT',
      ['Vertreter'],
      '2027-02-01T18:00',
      '2027-02-01T20:00',
    );
    events.trashedAr = await createEvent(
      'Abgesagt AR',
      ['Aufsichtsrat'],
      '2027-02-02T18:00',
      '2027-02-02T20:00',
    );
    for (const event of [events.trashedVt, events.trashedAr]) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/events/${event.id}`,
        headers: users.admin.headers,
      });
      expect(res.statusCode).toBe(204);
    }
  });
  afterAll(() => t.close());

  const manage = (user: TestUser, method: 'GET' | 'POST' | 'DELETE') =>
    t.app.inject({ method, url: '/api/v1/account/calendar-feed', headers: user.headers });
  async function subscribe(user: TestUser): Promise<{ url: string; token: string }> {
    const res = await manage(user, 'POST');
    expect(res.statusCode, res.body).toBe(201);
    const url = res.json().data.url as string;
    const match = /^http:\/\/portal\.test\/api\/v1\/calendar\/([A-Za-z0-9_-]{43})\.ics$/.exec(url);
    expect(match, url).not.toBeNull();
    return { url, token: match![1]! };
  }
  const fetchFeed = (
    token: string,
    options: { remoteAddress?: string; headers?: Record<string, string> } = {},
  ) => t.app.inject({ method: 'GET', url: `/api/v1/calendar/${token}.ics`, ...options });
  async function feedTitles(token: string) {
    const res = await fetchFeed(token);
    expect(res.statusCode, res.body).toBe(200);
    return childrenOf(readCalendar(res.body), 'VEVENT').map((e) => ({
      title: value(e, 'SUMMARY'),
      status: value(e, 'STATUS') ?? 'CONFIRMED',
      sequence: value(e, 'SEQUENCE'),
    }));
  }

  it('is created with a token shown once and stored only as SHA-256', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const before = await manage(user, 'GET');
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ data: { active: false, created_at: null, last_used_at: null } });

    const created = await manage(user, 'POST');
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const { token } = await subscribe(user);
    const rows = await t.db.kysely.selectFrom('calendar_feeds').selectAll().execute();
    expect(rows.filter((row) => row.user_id === user.id)).toEqual([
      { user_id: user.id, token_hash: hashToken(token), created_at: expect.any(String), last_used_at: null },
    ]);
    expect(JSON.stringify(rows)).not.toContain(token);

    const after = await manage(user, 'GET');
    expect(after.json().data).toMatchObject({ active: true, created_at: t.clock.now().toISOString() });
    expect(after.body).not.toContain(token);
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('object_id', '=', user.id)
      .where('action', 'like', 'account.calendar_feed%')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => [row.action, JSON.parse(row.details!)])).toEqual([
      ['account.calendar_feed_created', { replaced: false }],
      ['account.calendar_feed_created', { replaced: true }],
    ]);
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('lists what the member sees from 90 days back on, deleted events as cancelled, nothing hidden', async () => {
    const { token } = await subscribe(users.vertreter);
    const res = await fetchFeed(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const calendar = readCalendar(res.body);
    expect(value(calendar, 'METHOD')).toBe('PUBLISH');
    expect(await feedTitles(token)).toEqual([
      { title: 'Letzte Sitzung', status: 'CONFIRMED', sequence: '0' },
      { title: 'Vertreter-Sitzung', status: 'CONFIRMED', sequence: '0' },
      { title: 'Abgesagt VT', status: 'CANCELLED', sequence: '1' },
    ]);
    for (const hidden of ['AR-Klausur', 'Abgesagt AR', 'Alte Sitzung'])
      expect(res.body).not.toContain(hidden);

    const ar = await subscribe(users.aufsichtsrat);
    expect((await feedTitles(ar.token)).map((e) => e.title)).toEqual(['AR-Klausur', 'Abgesagt AR']);
    const admin = await subscribe(users.admin);
    expect(await feedTitles(admin.token)).toEqual([
      { title: 'Letzte Sitzung', status: 'CONFIRMED', sequence: '0' },
      { title: 'Vertreter-Sitzung', status: 'CONFIRMED', sequence: '0' },
      { title: 'AR-Klausur', status: 'CONFIRMED', sequence: '0' },
      { title: 'Abgesagt VT', status: 'CANCELLED', sequence: '1' },
      { title: 'Abgesagt AR', status: 'CANCELLED', sequence: '1' },
    ]);
  });

  it('reads the roles at every fetch', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const { token } = await subscribe(user);
    expect((await feedTitles(token)).map((e) => e.title)).toContain('Vertreter-Sitzung');
    const [aufsichtsrat] = await roleIds(t, ['Aufsichtsrat']);
    await t.db.kysely.deleteFrom('user_roles').where('user_id', '=', user.id).execute();
    await t.db.kysely.insertInto('user_roles').values({ user_id: user.id, role_id: aufsichtsrat! }).execute();
    expect((await feedTitles(token)).map((e) => e.title)).toEqual(['AR-Klausur', 'Abgesagt AR']);
  });

  it('notes the last use at most once an hour', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const { token } = await subscribe(user);
    const lastUsed = async () => (await manage(user, 'GET')).json().data.last_used_at as string | null;
    const first = t.clock.now().toISOString();
    await fetchFeed(token);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(59 * MINUTE);
    await fetchFeed(token);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(MINUTE);
    await fetchFeed(token);
    expect(await lastUsed()).toBe(t.clock.now().toISOString());
  });

  it('stops the old address when revoked or replaced', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const first = await subscribe(user);
    expect((await fetchFeed(first.token)).statusCode).toBe(200);
    const second = await subscribe(user);
    expect((await fetchFeed(first.token)).statusCode).toBe(404);
    expect((await fetchFeed(second.token)).statusCode).toBe(200);

    const revoked = await manage(user, 'DELETE');
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    const gone = await fetchFeed(second.token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: 'Nicht gefunden.' });
    expect((await manage(user, 'GET')).json().data.active).toBe(false);
    // Nothing left to revoke: the same 204, and no second audit entry.
    expect((await manage(user, 'DELETE')).statusCode).toBe(204);
    const revocations = await t.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .where('object_id', '=', user.id)
      .where('action', '=', 'account.calendar_feed_revoked')
      .execute();
    expect(revocations).toHaveLength(1);
  });

  it('answers 404 for a removed account', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const { token } = await subscribe(user);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${user.id}`,
      headers: users.admin.headers,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await fetchFeed(token)).statusCode).toBe(404);
  });

  it('opens nothing but the feed, and a session opens no feed', async () => {
    const { token } = await subscribe(users.vertreter);
    const bearer = { authorization: `Bearer ${token}` };
    for (const url of ['/api/v1/account', '/api/v1/events', `/api/v1/events/${events.vt.id}/ics`]) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer });
      expect(res.statusCode, url).toBe(401);
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/account/calendar-feed', headers: bearer }))
        .statusCode,
    ).toBe(401);
    // A signed-in member's session is no key to a feed.
    const other = await fetchFeed('B'.repeat(43), { headers: users.vertreter.headers });
    expect(other.statusCode).toBe(404);
  });

  it('answers malformed addresses 404', async () => {
    for (const segment of [
      'abc',
      'A'.repeat(31),
      'A'.repeat(65),
      `${'A'.repeat(42)}.`,
      `${'A'.repeat(42)}%00`,
      '..%2F..%2Fetc',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/calendar/${segment}.ics` });
      expect([res.statusCode, res.json()], segment).toEqual([404, { message: 'Nicht gefunden.' }]);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/calendar/${'A'.repeat(43)}` })).statusCode,
    ).toBe(404);
  });

  it('slows down a client that tries unknown tokens', async () => {
    const { token } = await subscribe(users.vertreter);
    const remoteAddress = '203.0.113.9';
    for (let i = 0; i < FEED_FAILURES_PER_CLIENT; i += 1) {
      expect(
        (await fetchFeed(`${'C'.repeat(40)}${String(i).padStart(3, '0')}`, { remoteAddress })).statusCode,
      ).toBe(404);
    }
    const limited = await fetchFeed(token, { remoteAddress });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Zu viele Versuche. Bitte warten Sie einen Moment.');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Other clients are not affected, and the limit ends with its window.
    expect((await fetchFeed(token)).statusCode).toBe(200);
    t.clock.advance(16 * MINUTE);
    expect((await fetchFeed(token, { remoteAddress })).statusCode).toBe(200);
  });
});

describe('calendar feed of a member who must set up a second factor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TWO_FACTOR_REQUIRED_ROLES: 'Aufsichtsrat' } });
  });
  afterAll(() => t.close());

  it('answers 404 until the second factor is set up', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/account/calendar-feed',
      headers: user.headers,
    });
    expect(created.statusCode).toBe(201);
    const url = new URL(created.json().data.url as string);
    expect((await t.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(200);

    const [aufsichtsrat] = await roleIds(t, ['Aufsichtsrat']);
    await t.db.kysely.insertInto('user_roles').values({ user_id: user.id, role_id: aufsichtsrat! }).execute();
    expect((await t.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(404);
    await t.db.kysely.updateTable('users').set({ two_factor_enabled: 1 }).where('id', '=', user.id).execute();
    expect((await t.app.inject({ method: 'GET', url: url.pathname })).statusCode).toBe(200);
  });
});
