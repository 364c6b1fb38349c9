// Over 300 lines: login with throttling, logout, forgot-password and password-reset are one sign-in flow and
// share the login, forgot, reset and mailed-link helpers; split, every file would repeat them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FORGOT_PASSWORD_SUCCESS_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  LOGIN_THROTTLED_MESSAGE,
  PASSWORD_RESET_SUCCESS_MESSAGE,
  RESET_TOKEN_INVALID_MESSAGE,
} from '@gremienportal/contracts/auth';
import { msg } from '@gremienportal/contracts/common';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, TEST_PASSWORD, type TestUser } from '../../support/factories.ts';
import { createTotpUser } from '../../support/two-factor.fixtures.ts';
import { HOUR, MINUTE } from '../../../src/clock.ts';
import { hashToken } from '../../../src/credentials/tokens.ts';
import { issuePasswordLink } from '../../../src/db/password-links.ts';

const NEW_PASSWORD = 'Neues-Kennwort-2026';

function login(t: TestApp, email: string, password: string, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

function forgot(t: TestApp, email: string, remoteAddress?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/forgot-password',
    payload: { email },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

function reset(t: TestApp, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/v1/auth/password-reset', payload });
}

/** Sends the queued mails and returns the reset link of the newest one to `email`. */
async function resetLinkFor(t: TestApp, email: string): Promise<{ id: number; token: string; text: string }> {
  const sent = (await t.flushMail()).filter((mail) => mail.to === email);
  const text = sent.at(-1)?.text ?? '';
  const match = /http:\/\/portal\.test\/reset-password\?id=(\d+)&token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`Kein Link in der E-Mail an ${email}`);
  return { id: Number(match[1]), token: match[2]!, text };
}

const auditRows = (t: TestApp, action: string) =>
  t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

const get = (t: TestApp, url: string, headers?: Record<string, string>) =>
  t.app.inject({ method: 'GET', url, ...(headers ? { headers } : {}) });

describe('auth', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  describe('POST /api/v1/auth/login', () => {
    it('signs in and answers token, token type and the user with role names', async () => {
      const user = await createUser(t, {
        roles: ['Aufsichtsrat', 'Vertreter'],
        title: 'Herr',
        firstname: 'Max',
        lastname: 'Mustermann',
      });
      const res = await login(t, user.email, TEST_PASSWORD);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        user: {
          id: user.id,
          name: 'Max Mustermann',
          email: user.email,
          title: 'Herr',
          firstname: 'Max',
          lastname: 'Mustermann',
          roles: ['Aufsichtsrat', 'Vertreter'],
        },
      });
      expect(body.access_token.length).toBeGreaterThanOrEqual(40);
      expect(res.headers['cache-control']).toBe('no-store');

      const me = await get(t, '/api/v1/account', { authorization: `Bearer ${body.access_token}` });
      expect(me.statusCode).toBe(200);
      expect(me.json().data.id).toBe(user.id);

      // Only the token's hash is stored.
      const sessions = await t.db.kysely
        .selectFrom('sessions')
        .select('token_hash')
        .where('user_id', '=', user.id)
        .execute();
      expect(sessions.map((s) => s.token_hash)).toContain(hashToken(body.access_token));
      expect(sessions.map((s) => s.token_hash)).not.toContain(body.access_token);

      const audit = (await auditRows(t, 'auth.login')).filter((row) => row.actor_id === user.id);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ object_type: 'user', object_id: user.id, ip: '127.0.0.1' });
    });

    it('accepts the e-mail address in any case and with spaces around it', async () => {
      const user = await createUser(t);
      const res = await login(t, `  ${user.email.toUpperCase()} `, TEST_PASSWORD);
      expect(res.statusCode).toBe(200);
      expect(res.json().user.email).toBe(user.email);
    });

    it('answers a wrong password and an unknown address alike, and records both', async () => {
      const user = await createUser(t);
      const wrong = await login(t, user.email, 'Falsches-Passwort-1', '10.0.0.1');
      const unknown = await login(t, 'niemand-hier@example.org', 'Falsches-Passwort-1', '10.0.0.1');
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ message: LOGIN_FAILED_MESSAGE });
      expect(unknown.body).toBe(wrong.body);

      const failed = await auditRows(t, 'auth.login_failed');
      const forUser = failed.find((row) => row.object_label === user.email);
      const forUnknown = failed.find((row) => row.object_label === 'niemand-hier@example.org');
      expect(forUser).toMatchObject({ actor_id: null, actor_label: null, ip: '10.0.0.1' });
      expect(forUnknown).toMatchObject({ actor_id: null, ip: '10.0.0.1' });
      expect(JSON.stringify(failed)).not.toContain('Falsches-Passwort-1');
    });

    it('refuses an account whose invitation was not accepted yet, whatever the password', async () => {
      const user = await createUser(t);
      await t.db.kysely.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute();
      for (const password of [TEST_PASSWORD, 'dummy-password-for-timing', '']) {
        const res = await login(t, user.email, password || 'irgendwas');
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ message: LOGIN_FAILED_MESSAGE });
      }
    });

    it('answers bad input with German messages and never with 500', async () => {
      const url = '/api/v1/auth/login';
      const json = { 'content-type': 'application/json' };
      const cases: { payload?: string; headers?: Record<string, string>; status: number; message: string }[] =
        [
          {
            payload: '{"email": "a@b.de", ',
            headers: json,
            status: 400,
            message: 'Die Anfrage enthält kein gültiges JSON.',
          },
          { payload: '', headers: json, status: 400, message: 'Die Anfrage enthält keine Daten.' },
          { payload: '[1, 2]', headers: json, status: 400, message: 'Die Anfrage ist ungültig.' },
          { payload: '"text"', headers: json, status: 400, message: 'Die Anfrage ist ungültig.' },
          { status: 400, message: 'Die Anfrage ist ungültig.' },
          {
            payload: '{"__proto__": {"admin": true}}',
            headers: json,
            status: 400,
            message: 'Die Anfrage enthält kein gültiges JSON.',
          },
          {
            payload: '<login/>',
            headers: { 'content-type': 'application/xml' },
            status: 415,
            message: 'Dieses Datenformat wird nicht unterstützt.',
          },
          {
            payload: 'email=a%40b.de',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            status: 415,
            message: 'Dieses Datenformat wird nicht unterstützt.',
          },
          {
            payload: JSON.stringify({ email: 'a@b.de', password: 'x'.repeat(64 * 1024) }),
            headers: json,
            status: 413,
            message: 'Die Anfrage ist zu groß.',
          },
        ];
      for (const c of cases) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          ...(c.payload === undefined ? {} : { payload: c.payload }),
          ...(c.headers ? { headers: c.headers } : {}),
        });
        expect({ payload: c.payload?.slice(0, 40), status: res.statusCode }).toEqual({
          payload: c.payload?.slice(0, 40),
          status: c.status,
        });
        expect(res.json()).toEqual({ message: c.message });
      }
    });

    it('names each wrong or missing field in German (422)', async () => {
      const wrongTypes = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 42, password: ['geheim'] },
      });
      expect(wrongTypes.statusCode).toBe(422);
      expect(wrongTypes.json().message).toBe('Die Eingaben sind ungültig.');
      expect(wrongTypes.json().errors.email).toContain('E-Mail-Adresse ist erforderlich.');
      expect(wrongTypes.json().errors.password).toContain('Passwort ist erforderlich.');

      const missing = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: {} });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toEqual({
        message: 'Die Eingaben sind ungültig.',
        errors: { email: ['E-Mail-Adresse ist erforderlich.'], password: ['Passwort ist erforderlich.'] },
      });

      const invalid = await login(t, 'keine-adresse', 'kurz');
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().errors).toEqual({
        email: ['Bitte eine gültige E-Mail-Adresse eingeben.'],
        password: ['Passwort muss mindestens 6 Zeichen lang sein.'],
      });
    });

    describe('throttling', () => {
      it('refuses the 6th attempt within a minute with 429 and Retry-After, even with the right password', async () => {
        const user = await createUser(t);
        for (let i = 0; i < 5; i += 1) {
          expect((await login(t, user.email, 'Falsches-Passwort-1', '10.1.0.1')).statusCode).toBe(401);
        }
        const blocked = await login(t, user.email, TEST_PASSWORD, '10.1.0.1');
        expect(blocked.statusCode).toBe(429);
        expect(blocked.json()).toEqual({ message: LOGIN_THROTTLED_MESSAGE });
        const retryAfter = Number(blocked.headers['retry-after']);
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);

        // The limit is per address and client: other pairs are not affected.
        expect((await login(t, user.email, TEST_PASSWORD, '10.1.0.2')).statusCode).toBe(200);
        const other = await createUser(t);
        expect((await login(t, other.email, TEST_PASSWORD, '10.1.0.1')).statusCode).toBe(200);

        t.clock.advance(30_000);
        const stillBlocked = await login(t, user.email, TEST_PASSWORD, '10.1.0.1');
        expect(stillBlocked.statusCode).toBe(429);
        expect(Number(stillBlocked.headers['retry-after'])).toBeLessThanOrEqual(30);

        t.clock.advance(MINUTE);
        expect((await login(t, user.email, TEST_PASSWORD, '10.1.0.1')).statusCode).toBe(200);
      });

      it('counts unknown addresses too, so probing for accounts is throttled alike', async () => {
        for (let i = 0; i < 5; i += 1) {
          expect(
            (await login(t, 'unbekannt@example.org', 'Falsches-Passwort-1', '10.2.0.1')).statusCode,
          ).toBe(401);
        }
        const res = await login(t, 'unbekannt@example.org', 'Falsches-Passwort-1', '10.2.0.1');
        expect(res.statusCode).toBe(429);
        expect(res.headers['retry-after']).toBeDefined();
      });

      it('starts counting anew after a successful login', async () => {
        const user = await createUser(t);
        for (let i = 0; i < 4; i += 1) await login(t, user.email, 'Falsches-Passwort-1', '10.3.0.1');
        expect((await login(t, user.email, TEST_PASSWORD, '10.3.0.1')).statusCode).toBe(200);
        for (let i = 0; i < 5; i += 1) {
          expect((await login(t, user.email, 'Falsches-Passwort-1', '10.3.0.1')).statusCode).toBe(401);
        }
        expect((await login(t, user.email, 'Falsches-Passwort-1', '10.3.0.1')).statusCode).toBe(429);
      });

      it('lets no more than 5 concurrent guesses through', async () => {
        const user = await createUser(t);
        const results = await Promise.all(
          Array.from({ length: 12 }, () => login(t, user.email, 'Falsches-Passwort-1', '10.4.0.1')),
        );
        const statuses = results.map((res) => res.statusCode);
        expect(statuses.filter((s) => s === 401)).toHaveLength(5);
        expect(statuses.filter((s) => s === 429)).toHaveLength(7);
      });

      it('takes the limit from LOGIN_MAX_ATTEMPTS', async () => {
        const strict = await buildTestApp({ env: { LOGIN_MAX_ATTEMPTS: '2' } });
        try {
          const user = await createUser(strict);
          expect((await login(strict, user.email, 'Falsches-Passwort-1')).statusCode).toBe(401);
          expect((await login(strict, user.email, 'Falsches-Passwort-1')).statusCode).toBe(401);
          expect((await login(strict, user.email, TEST_PASSWORD)).statusCode).toBe(429);
        } finally {
          await strict.close();
        }
      });
    });
  });

  describe('POST /api/v1/auth/logout', () => {
    it('ends the current session only', async () => {
      const user = await createUser(t);
      const second = (await login(t, user.email, TEST_PASSWORD)).json().access_token as string;
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: user.headers });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');

      const after = await get(t, '/api/v1/roles', user.headers);
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
      expect((await get(t, '/api/v1/roles', { authorization: `Bearer ${second}` })).statusCode).toBe(200);

      const audit = (await auditRows(t, 'auth.logout')).filter((row) => row.actor_id === user.id);
      expect(audit).toHaveLength(1);
    });

    it('needs a signed-in user', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
      const bogus = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/logout',
        headers: { authorization: 'Bearer gibt-es-nicht' },
      });
      expect(bogus.statusCode).toBe(401);
    });
  });

  describe('POST /api/v1/auth/forgot-password', () => {
    it('queues a German mail with a one-time link for a known address', async () => {
      const user = await createUser(t, { title: 'Frau', firstname: 'Erika', lastname: 'Beispiel' });
      t.mail.sent.length = 0;
      const res = await forgot(t, user.email.toUpperCase());
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: FORGOT_PASSWORD_SUCCESS_MESSAGE });

      // Queued by the background worker, sent by the background sender.
      await t.runJobs();
      expect(t.mail.sent).toHaveLength(0);
      const queued = await t.db.kysely
        .selectFrom('outbox')
        .selectAll()
        .where('to_address', '=', user.email)
        .execute();
      expect(queued).toHaveLength(1);
      expect(queued[0]!.sent_at).toBeNull();

      const { id, token, text } = await resetLinkFor(t, user.email);
      expect(id).toBe(user.id);
      const mail = t.mail.sent.find((m) => m.to === user.email)!;
      expect(mail.subject).toBe('Passwort zurücksetzen – Gremienportal');
      expect(text).toContain('Sehr geehrte Frau Beispiel,');
      expect(text).toContain('60 Minuten');
      expect(text).toContain('Falls Sie das nicht angefordert haben');

      const stored = await t.db.kysely
        .selectFrom('password_tokens')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ purpose: 'reset', token_hash: hashToken(token), used_at: null });
      expect(JSON.stringify(stored)).not.toContain(token);

      const audit = (await auditRows(t, 'auth.reset_requested')).filter((row) => row.object_id === user.id);
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ actor_id: null, ip: '127.0.0.1' });
      expect(JSON.stringify(audit)).not.toContain(token);
    });

    it('greets men as Herr', async () => {
      const user = await createUser(t, { title: 'Herr', lastname: 'Schmidt' });
      await forgot(t, user.email);
      const { text } = await resetLinkFor(t, user.email);
      expect(text.startsWith('Sehr geehrter Herr Schmidt,')).toBe(true);
    });

    it('answers an unknown address exactly like a known one and sends nothing', async () => {
      const user = await createUser(t);
      const known = await forgot(t, user.email);
      await t.runJobs();
      const outboxBefore = await t.db.kysely.selectFrom('outbox').select('id').execute();
      const unknown = await forgot(t, 'gibt-es-nicht@example.org');
      await t.runJobs();
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
      const outboxAfter = await t.db.kysely.selectFrom('outbox').select('id').execute();
      expect(outboxAfter).toHaveLength(outboxBefore.length);
      const audit = await auditRows(t, 'auth.reset_requested');
      expect(audit.some((row) => row.object_label?.includes('gibt-es-nicht'))).toBe(false);
    });

    it('stops mailing after 5 requests per hour from one client, still answering 200', async () => {
      const user = await createUser(t);
      for (let i = 0; i < 7; i += 1) {
        const res = await forgot(t, user.email, '10.5.0.1');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: FORGOT_PASSWORD_SUCCESS_MESSAGE });
      }
      await t.runJobs();
      const queued = await t.db.kysely
        .selectFrom('outbox')
        .select('id')
        .where('to_address', '=', user.email)
        .execute();
      expect(queued).toHaveLength(5);

      t.clock.advance(HOUR);
      await forgot(t, user.email, '10.5.0.1');
      await t.runJobs();
      const later = await t.db.kysely
        .selectFrom('outbox')
        .select('id')
        .where('to_address', '=', user.email)
        .execute();
      expect(later).toHaveLength(6);
    });

    it('caps mails to one address at 10 per hour across clients', async () => {
      const user = await createUser(t);
      for (let i = 0; i < 12; i += 1) {
        expect((await forgot(t, user.email, `10.6.0.${i + 1}`)).statusCode).toBe(200);
      }
      await t.runJobs();
      const queued = await t.db.kysely
        .selectFrom('outbox')
        .select('id')
        .where('to_address', '=', user.email)
        .execute();
      expect(queued).toHaveLength(10);
    });

    it('validates the address in German', async () => {
      const missing = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: {},
      });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors).toEqual({ email: ['E-Mail-Adresse ist erforderlich.'] });
      const invalid = await forgot(t, 'kein-at-zeichen');
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().errors).toEqual({ email: ['Bitte eine gültige E-Mail-Adresse eingeben.'] });
      const xml = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: '<x/>',
        headers: { 'content-type': 'application/xml' },
      });
      expect(xml.statusCode).toBe(415);
      expect(xml.json()).toEqual({ message: 'Dieses Datenformat wird nicht unterstützt.' });
    });
  });

  describe('POST /api/v1/auth/password-reset', () => {
    async function requestLink(user: TestUser) {
      await forgot(t, user.email);
      return resetLinkFor(t, user.email);
    }
    const body = (link: { id: number; token: string }, password = NEW_PASSWORD) => ({
      id: link.id,
      token: link.token,
      password,
      password_confirmation: password,
    });
    const expectInvalidToken = (res: Awaited<ReturnType<typeof reset>>) => {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: RESET_TOKEN_INVALID_MESSAGE,
        errors: { token: [RESET_TOKEN_INVALID_MESSAGE] },
      });
    };

    it('sets the new password once and ends every session of the user', async () => {
      const user = await createUser(t);
      const otherSession = (await login(t, user.email, TEST_PASSWORD)).json().access_token as string;
      const link = await requestLink(user);

      const res = await reset(t, body(link));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: PASSWORD_RESET_SUCCESS_MESSAGE });

      expect((await get(t, '/api/v1/roles', user.headers)).statusCode).toBe(401);
      expect((await get(t, '/api/v1/roles', { authorization: `Bearer ${otherSession}` })).statusCode).toBe(
        401,
      );
      expect((await login(t, user.email, TEST_PASSWORD)).statusCode).toBe(401);
      expect((await login(t, user.email, NEW_PASSWORD)).statusCode).toBe(200);

      const audit = (await auditRows(t, 'auth.reset_completed')).filter((row) => row.object_id === user.id);
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actor_id).toBe(user.id);
      expect(JSON.stringify(audit)).not.toContain(NEW_PASSWORD);

      // Single use.
      expectInvalidToken(await reset(t, body(link, 'Noch-ein-Passwort-7')));
      expect((await login(t, user.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('refuses a link after 60 minutes', async () => {
      const user = await createUser(t);
      const link = await requestLink(user);
      t.clock.advance(60 * MINUTE + 1_000);
      expectInvalidToken(await reset(t, body(link)));
      expect((await login(t, user.email, TEST_PASSWORD)).statusCode).toBe(200);
    });

    it('accepts a link shortly before it expires', async () => {
      const user = await createUser(t);
      const link = await requestLink(user);
      t.clock.advance(59 * MINUTE);
      expect((await reset(t, body(link))).statusCode).toBe(200);
    });

    it('invalidates an older link when a new one is requested', async () => {
      const user = await createUser(t);
      const first = await requestLink(user);
      const second = await requestLink(user);
      expect(second.token).not.toBe(first.token);
      expectInvalidToken(await reset(t, body(first)));
      expect((await reset(t, body(second))).statusCode).toBe(200);
    });

    it('answers a wrong token, a wrong id and an unknown id alike', async () => {
      const user = await createUser(t);
      const other = await createUser(t);
      const link = await requestLink(user);
      expectInvalidToken(await reset(t, body({ id: link.id, token: 'falsch' })));
      expectInvalidToken(await reset(t, body({ id: other.id, token: link.token })));
      expectInvalidToken(await reset(t, body({ id: 999_999, token: link.token })));
      // The link still works after the failed tries.
      expect((await reset(t, body(link))).statusCode).toBe(200);
    });

    it("refuses the user's own e-mail address as password and keeps the link usable", async () => {
      const user = await createUser(t);
      const link = await requestLink(user);
      const res = await reset(t, body(link, user.email.toUpperCase()));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: msg.passwordIsEmail,
        errors: { password: [msg.passwordIsEmail] },
      });
      expect((await reset(t, body(link))).statusCode).toBe(200);
    });

    it('validates the fields in German before looking at the token', async () => {
      const user = await createUser(t);
      const link = await requestLink(user);
      const mismatch = await reset(t, { ...body(link), password_confirmation: 'Etwas-Anderes-99' });
      expect(mismatch.statusCode).toBe(422);
      expect(mismatch.json().errors).toEqual({ password_confirmation: [msg.passwordMismatch] });

      const short = await reset(t, body(link, 'kurz'));
      expect(short.statusCode).toBe(422);
      expect(short.json().errors.password).toEqual(['Passwort muss mindestens 6 Zeichen lang sein.']);

      const long = await reset(t, body(link, 'x'.repeat(129)));
      expect(long.statusCode).toBe(422);
      expect(long.json().errors.password).toEqual(['Passwort darf höchstens 128 Zeichen lang sein.']);

      const common = await reset(t, body(link, 'Passwort1'));
      expect(common.statusCode).toBe(422);
      expect(common.json().errors.password).toEqual([msg.passwordCommon]);

      const missing = await reset(t, {});
      expect(missing.statusCode).toBe(422);
      expect(Object.keys(missing.json().errors).sort()).toEqual([
        'id',
        'password',
        'password_confirmation',
        'token',
      ]);
      expect(missing.json().errors.token).toEqual(['Token ist erforderlich.']);

      const badId = await reset(t, { ...body(link), id: 'abc' });
      expect(badId.statusCode).toBe(422);
      expect(badId.json().errors).toEqual({ id: [msg.invalidId] });

      const malformed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset',
        payload: '{"id": 1,',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ message: 'Die Anfrage enthält kein gültiges JSON.' });

      // None of that used the link up.
      expect((await reset(t, body(link))).statusCode).toBe(200);
    });

    it('sets the first password through an invitation link, valid for 7 days', async () => {
      const user = await createUser(t);
      await t.db.kysely.updateTable('users').set({ password_hash: null }).where('id', '=', user.id).execute();
      const link = await t.db.kysely
        .transaction()
        .execute((trx) => issuePasswordLink(trx, t.app.context, user.id, 'invite'));
      const params = new URL(link).searchParams;
      t.clock.advance(6 * 24 * HOUR);

      const res = await reset(t, body({ id: Number(params.get('id')), token: params.get('token')! }));
      expect(res.statusCode).toBe(200);
      expect((await login(t, user.email, NEW_PASSWORD)).statusCode).toBe(200);
      const audit = (await auditRows(t, 'auth.invitation_accepted')).filter((r) => r.object_id === user.id);
      expect(audit).toHaveLength(1);
      // The welcome signs the member in: the answer carries a session (decision 176).
      expect(res.json().sign_in).toMatchObject({ token_type: 'Bearer', user: { id: user.id } });
      const session = res.json().sign_in.access_token as string;
      expect((await get(t, '/api/v1/account', { authorization: `Bearer ${session}` })).statusCode).toBe(200);
    });

    it('asks an invited account that already has a second factor for it instead of signing in', async () => {
      const user = await createTotpUser(t);
      const link = await t.db.kysely
        .transaction()
        .execute((trx) => issuePasswordLink(trx, t.app.context, user.id, 'invite'));
      expect(link).toMatch(/^http:\/\/portal\.test\/willkommen\?id=\d+&token=/);
      const params = new URL(link).searchParams;
      const res = await reset(t, body({ id: Number(params.get('id')), token: params.get('token')! }));
      expect(res.statusCode).toBe(200);
      const signIn = res.json().sign_in;
      expect(signIn).toMatchObject({ two_factor_required: true, methods: ['totp', 'recovery'] });
      expect(signIn.access_token).toBeUndefined();
    });
  });

  describe('OpenAPI document', () => {
    it('describes the auth, account and roles routes with their answers', async () => {
      const res = await get(t, '/api/docs/json');
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      for (const path of [
        '/api/v1/auth/login',
        '/api/v1/auth/logout',
        '/api/v1/auth/forgot-password',
        '/api/v1/auth/password-reset',
      ]) {
        expect(doc.paths[path]?.post, path).toBeDefined();
      }
      expect(doc.paths['/api/v1/account'].get).toBeDefined();
      expect(doc.paths['/api/v1/account'].put).toBeDefined();
      expect(doc.paths['/api/v1/roles'].get).toBeDefined();

      const loginDoc = doc.paths['/api/v1/auth/login'].post;
      expect(loginDoc.security).toEqual([]);
      expect(Object.keys(loginDoc.responses)).toEqual(expect.arrayContaining(['200', '401', '422', '429']));
      // Signed in, or (with a second factor, decision 126) the challenge for the second step.
      const loginSchema = loginDoc.responses['200'].content['application/json'].schema;
      const variants = (loginSchema.anyOf ?? loginSchema.oneOf) as { required: string[] }[];
      expect(variants.map((variant) => variant.required)).toEqual([
        ['access_token', 'token_type', 'user'],
        ['two_factor_required', 'methods', 'challenge'],
      ]);
      expect(doc.paths['/api/v1/auth/logout'].post.responses['204']).toBeDefined();
      expect(doc.paths['/api/v1/auth/logout'].post.security).toBeUndefined();
    });
  });
});
