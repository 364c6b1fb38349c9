// Over 300 lines: every way a session ends (logout, password change and reset, role removal, deletion,
// expiry) is checked against the same reads, downloads and writes, set up once per describe.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '@gremienportal/contracts/common';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, TEST_PASSWORD, type TestUser } from '../support/factories.ts';
import { dataUrl, pdfBytes } from '../support/files.fixtures.ts';
import { HOUR, MINUTE } from '../../src/clock.ts';

/**
 * Sessions end where product.md P8.4 says, on the very next request and on every kind of route:
 * reads, downloads of documents and event files, writes. Complements auth/sessions.test.ts
 * (expiry on one route) and the account and user tests (one route each).
 */

const NEW_PASSWORD = 'Ganz-Neues-Kennwort-8';
type Headers = Record<string, string>;

describe('sessions end on the next request', () => {
  let t: TestApp;
  let superAdmin: TestUser;
  let folderId: number;
  let file: { id: number; external: string };
  let event: { id: number; external: string };

  const inject = (headers: Headers, options: InjectOptions) =>
    t.app.inject({ ...options, headers: { ...headers, ...(options.headers ?? {}) } });
  const su = (options: InjectOptions) => inject(superAdmin.headers, options);

  /** Signs in through the API, as the web app does; returns the bearer header. */
  async function login(email: string, password = TEST_PASSWORD): Promise<Headers> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { authorization: `Bearer ${res.json().access_token as string}` };
  }

  /** What a member of the Aufsichtsrat does with a session: read, download, change the account. */
  const memberCalls = (): InjectOptions[] => [
    { method: 'GET', url: '/api/v1/account' },
    { method: 'GET', url: '/api/v1/tree' },
    { method: 'GET', url: `/api/v1/files/${file.id}` },
    { method: 'GET', url: `/api/v1/download/${file.external}` },
    { method: 'HEAD', url: `/api/v1/download/${file.external}` },
    { method: 'GET', url: `/api/v1/download/${file.external}`, headers: { range: 'bytes=0-3' } },
    { method: 'GET', url: `/api/v1/events/${event.id}` },
    { method: 'GET', url: `/api/v1/info/${event.external}` },
    { method: 'GET', url: `/api/v1/events/${event.id}/ics` },
    { method: 'PUT', url: '/api/v1/account', payload: {} },
  ];
  /** What an admin does with a session. */
  const adminCalls = (): InjectOptions[] => [
    { method: 'GET', url: '/api/v1/user' },
    { method: 'GET', url: '/api/v1/audit' },
    {
      method: 'POST',
      url: '/api/v1/folders',
      payload: { folder_id: folderId, title: `Neu ${Math.random()}` },
    },
  ];

  async function statuses(headers: Headers, calls: InjectOptions[]): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const call of calls) {
      const res = await inject(headers, call);
      result[`${call.method} ${call.url}${call.headers?.range ? ' (Range)' : ''}`] = res.statusCode;
    }
    return result;
  }
  const allAre = (calls: InjectOptions[], status: number | ((call: InjectOptions) => number)) =>
    Object.fromEntries(
      calls.map((call) => [
        `${call.method} ${call.url}${call.headers?.range ? ' (Range)' : ''}`,
        typeof status === 'number' ? status : status(call),
      ]),
    );
  /** 2xx as each call answers it when allowed. */
  const allowed = (call: InjectOptions) => (call.method === 'POST' ? 201 : call.headers?.range ? 206 : 200);

  async function sessionsOf(userId: number) {
    return t.db.kysely.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
  }

  async function member(roles: RoleName[] = ['Aufsichtsrat']) {
    const user = await createUser(t, { roles });
    return { user, first: await login(user.email), second: await login(user.email) };
  }

  beforeAll(async () => {
    t = await buildTestApp();
    superAdmin = await createUser(t, { roles: ['Super-Admin'] });
    const folder = await su({
      method: 'POST',
      url: '/api/v1/folders',
      payload: { folder_id: 2, title: 'Sitzungsunterlagen' },
    });
    folderId = folder.json().folder.id;
    file = (
      await su({
        method: 'POST',
        url: '/api/v1/files',
        payload: {
          title: 'Prüfbericht',
          file: dataUrl(pdfBytes('vertraulich')),
          permissions: ['Aufsichtsrat'],
          folder_id: folderId,
        },
      })
    ).json().file;
    event = (
      await su({
        method: 'POST',
        url: '/api/v1/events',
        payload: {
          title: 'Aufsichtsratssitzung',
          roles: ['Aufsichtsrat'],
          start: '2031-02-01T10:00',
          end: '2031-02-01T12:00',
          location: 'Sitzungssaal',
          description: 'Vertrauliche Sitzung',
          data: dataUrl(pdfBytes('Tagesordnung')),
        },
      })
    ).json().event;
  });
  afterAll(() => t?.close());

  it('logout ends that session everywhere, and only that one', async () => {
    const { user, first, second } = await member();
    expect(await statuses(first, memberCalls())).toEqual(allAre(memberCalls(), allowed));

    const res = await inject(first, { method: 'POST', url: '/api/v1/auth/logout' });
    expect(res.statusCode).toBe(204);
    expect(await statuses(first, memberCalls())).toEqual(allAre(memberCalls(), 401));
    // A second logout with the same token is no longer signed in either.
    expect((await inject(first, { method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(401);
    expect(await statuses(second, memberCalls())).toEqual(allAre(memberCalls(), allowed));
    expect(await sessionsOf(user.id)).toHaveLength(2); // the factory's and the second login
  });

  it('a password change through the account ends every other session, not the one that made it', async () => {
    const { user, first, second } = await member();
    const res = await inject(first, {
      method: 'PUT',
      url: '/api/v1/account',
      payload: {
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
        current_password: TEST_PASSWORD,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await statuses(second, memberCalls())).toEqual(allAre(memberCalls(), 401));
    expect(await statuses(user.headers, memberCalls())).toEqual(allAre(memberCalls(), 401));
    expect(await statuses(first, memberCalls())).toEqual(allAre(memberCalls(), allowed));
    expect(await sessionsOf(user.id)).toHaveLength(1);

    const old = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    await login(user.email, NEW_PASSWORD);
  });

  it('a password reset through the mailed link ends every session of the user', async () => {
    const { user, first, second } = await member();
    const forgot = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: user.email },
    });
    expect(forgot.statusCode).toBe(200);
    const mail = (await t.flushMail()).findLast((m) => m.to.includes(user.email));
    const link = new URL(/https?:\/\/\S+reset-password\S+/.exec(mail!.text)![0]);
    // The link does not sign anybody in, and a session started after it was mailed ends too.
    const third = await login(user.email);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      payload: {
        id: Number(link.searchParams.get('id')),
        token: link.searchParams.get('token'),
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const headers of [first, second, third, user.headers]) {
      expect(await statuses(headers, memberCalls())).toEqual(allAre(memberCalls(), 401));
    }
    expect(await sessionsOf(user.id)).toEqual([]);
    await login(user.email, NEW_PASSWORD);
  });

  it('a removed role hides its documents and events on the next request, the session stays', async () => {
    const { user, first } = await member(['Aufsichtsrat', 'Vertreter']);
    expect(await statuses(first, memberCalls())).toEqual(allAre(memberCalls(), allowed));
    const tree = async () =>
      JSON.stringify((await inject(first, { method: 'GET', url: '/api/v1/tree' })).json());
    expect(await tree()).toContain('Prüfbericht');

    const res = await su({
      method: 'PUT',
      url: `/api/v1/user/${user.id}`,
      payload: {
        title: 'Frau',
        firstname: 'Erika',
        lastname: 'Muster',
        email: user.email,
        roles: ['Vertreter'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);

    const hidden = (call: InjectOptions) =>
      call.url === '/api/v1/account' || call.url === '/api/v1/tree' ? allowed(call) : 404;
    expect(await statuses(first, memberCalls())).toEqual(allAre(memberCalls(), hidden));
    expect(await tree()).not.toContain('Prüfbericht');
    const lists = await Promise.all(
      ['/api/v1/files', '/api/v1/events', '/api/v1/folders', '/api/v1/file-breadcrumbs'].map(async (url) =>
        JSON.stringify((await inject(first, { method: 'GET', url })).json()),
      ),
    );
    for (const list of lists) {
      expect(list).not.toContain('Prüfbericht');
      expect(list).not.toContain('Aufsichtsratssitzung');
      expect(list).not.toContain('Sitzungsunterlagen');
    }
    // Granted again: visible again, on the next request.
    await su({
      method: 'PUT',
      url: `/api/v1/user/${user.id}`,
      payload: {
        title: 'Frau',
        firstname: 'Erika',
        lastname: 'Muster',
        email: user.email,
        roles: ['Aufsichtsrat'],
      },
    });
    expect(await statuses(first, memberCalls())).toEqual(allAre(memberCalls(), allowed));
  });

  it('a removed admin role ends admin access on the next request', async () => {
    const admin = await createUser(t, { roles: ['Admin', 'Aufsichtsrat'] });
    const session = await login(admin.email);
    expect(await statuses(session, adminCalls())).toEqual(allAre(adminCalls(), allowed));
    const res = await su({
      method: 'PUT',
      url: `/api/v1/user/${admin.id}`,
      payload: {
        title: 'Herr',
        firstname: 'Max',
        lastname: 'Muster',
        email: admin.email,
        roles: ['Aufsichtsrat'],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await statuses(session, adminCalls())).toEqual(allAre(adminCalls(), 403));
    expect(await statuses(session, memberCalls())).toEqual(allAre(memberCalls(), allowed));
  });

  it('deleting an account ends all its sessions on the next request', async () => {
    const { user, first, second } = await member();
    expect(await statuses(first, memberCalls())).toEqual(allAre(memberCalls(), allowed));
    const res = await su({ method: 'DELETE', url: `/api/v1/user/${user.id}` });
    expect(res.statusCode).toBe(204);
    for (const headers of [first, second, user.headers]) {
      expect(await statuses(headers, memberCalls())).toEqual(allAre(memberCalls(), 401));
    }
    expect(await sessionsOf(user.id)).toEqual([]);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(again.statusCode).toBe(401);
  });

  it('a deleted admin cannot finish what the session was doing', async () => {
    const admin = await createUser(t, { roles: ['Admin'] });
    const session = await login(admin.email);
    expect((await su({ method: 'DELETE', url: `/api/v1/user/${admin.id}` })).statusCode).toBe(204);
    expect(await statuses(session, adminCalls())).toEqual(allAre(adminCalls(), 401));
  });

  it('accepts the token only as a bearer header, never from the address or a cookie', async () => {
    const { first } = await member();
    const token = first.authorization!.slice('Bearer '.length);
    const tries: InjectOptions[] = [
      { method: 'GET', url: `/api/v1/download/${file.external}?access_token=${token}` },
      { method: 'GET', url: `/api/v1/download/${file.external}?token=${token}` },
      { method: 'GET', url: `/api/v1/account`, headers: { cookie: `access_token=${token}` } },
      { method: 'GET', url: `/api/v1/account`, headers: { authorization: token } },
      { method: 'GET', url: `/api/v1/account`, headers: { authorization: `Token ${token}` } },
      { method: 'GET', url: `/api/v1/account`, headers: { authorization: `Basic ${token}` } },
      { method: 'GET', url: `/api/v1/account`, headers: { authorization: `Bearer ${token} ${token}` } },
      { method: 'GET', url: `/api/v1/account`, headers: { authorization: `Bearer ${token}x` } },
      { method: 'GET', url: `/api/v1/account`, headers: { authorization: `Bearer ${token.slice(0, -1)}` } },
      { method: 'GET', url: `/api/v1/account`, headers: { 'x-access-token': token } },
    ];
    for (const attempt of tries) {
      const res = await t.app.inject(attempt);
      expect(res.statusCode, JSON.stringify(attempt)).toBe(401);
      expect(res.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
    }
    expect((await inject(first, { method: 'GET', url: '/api/v1/account' })).statusCode).toBe(200);
  });
});

describe('sessions expire by a controllable clock', () => {
  let t: TestApp;
  let file: { external: string };

  beforeAll(async () => {
    t = await buildTestApp({ env: { SESSION_IDLE_MINUTES: '30', SESSION_ABSOLUTE_HOURS: '4' } });
    const admin = await createUser(t, { roles: ['Admin'] });
    const folder = await t.app.inject({
      method: 'POST',
      url: '/api/v1/folders',
      headers: admin.headers,
      payload: { folder_id: 3, title: 'Versammlung' },
    });
    file = (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/files',
        headers: admin.headers,
        payload: {
          title: 'Einladung',
          file: dataUrl(pdfBytes('Einladung')),
          permissions: ['Vertreter'],
          folder_id: folder.json().folder.id,
        },
      })
    ).json().file;
  });
  afterAll(() => t?.close());

  async function session() {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    return { authorization: `Bearer ${res.json().access_token as string}` };
  }
  const download = (headers: Headers) =>
    t.app.inject({ method: 'GET', url: `/api/v1/download/${file.external}`, headers });
  const write = (headers: Headers) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/account', headers, payload: {} });

  it('ends an idle session after the configured idle time, on downloads and writes alike', async () => {
    const a = await session();
    const b = await session();
    t.clock.advance(30 * MINUTE - 1_000);
    expect((await download(a)).statusCode).toBe(200);
    expect((await write(b)).statusCode).toBe(200);
    t.clock.advance(30 * MINUTE + 1_000);
    expect((await download(a)).statusCode).toBe(401);
    expect((await write(b)).statusCode).toBe(401);
    // Gone for good: the clock does not bring it back.
    expect((await download(a)).statusCode).toBe(401);
  });

  it('ends an active session at the absolute limit, however busy', async () => {
    const headers = await session();
    let elapsed = 0;
    while (elapsed + 20 * MINUTE < 4 * HOUR) {
      t.clock.advance(20 * MINUTE);
      elapsed += 20 * MINUTE;
      expect((await download(headers)).statusCode, `nach ${elapsed / MINUTE} Minuten`).toBe(200);
    }
    t.clock.advance(4 * HOUR - elapsed - 1_000);
    expect((await write(headers)).statusCode).toBe(200);
    t.clock.advance(2_000);
    expect((await download(headers)).statusCode).toBe(401);
    expect((await write(headers)).statusCode).toBe(401);
  });
});
