// Over 300 lines: GET and PUT /account and the password links an own change revokes share one test app and
// the account, login and audit helpers; the PUT rules per role are most of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_FIELDS_FORBIDDEN_MESSAGE } from '@gremienportal/contracts/account';
import { RESET_TOKEN_INVALID_MESSAGE } from '@gremienportal/contracts/auth';
import { msg } from '@gremienportal/contracts/common';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, sessionFor, TEST_PASSWORD, type TestUser } from '../../support/factories.ts';

const NEW_PASSWORD = 'Neues-Kennwort-2026';

describe('account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const getAccount = (user: Pick<TestUser, 'headers'>) =>
    t.app.inject({ method: 'GET', url: '/api/v1/account', headers: user.headers });
  /** GET's account without its second-factor part and memberships, which PUT does not answer (decisions 126, 189). */
  const profileOf = async (user: Pick<TestUser, 'headers'>) => {
    const {
      two_factor: _twoFactor,
      memberships: _memberships,
      ...profile
    } = (await getAccount(user)).json().data;
    return profile;
  };
  const putAccount = (user: Pick<TestUser, 'headers'>, payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v1/account',
      headers: user.headers,
      payload: payload as Record<string, unknown>,
    });
  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
  const storedUser = (id: number) =>
    t.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const accountAudit = (id: number) =>
    t.db.kysely
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'account.updated')
      .where('object_id', '=', id)
      .orderBy('id')
      .execute();

  describe('GET /api/v1/account', () => {
    it('answers the own account with role names and roles_string', async () => {
      const user = await createUser(t, {
        roles: ['Vertreter', 'Aufsichtsrat'],
        title: 'Frau',
        firstname: 'Erika',
        lastname: 'Musterfrau',
      });
      const res = await getAccount(user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        data: {
          id: user.id,
          title: 'Frau',
          firstname: 'Erika',
          lastname: 'Musterfrau',
          email: user.email,
          roles: ['Aufsichtsrat', 'Vertreter'],
          roles_string: 'Aufsichtsrat, Vertreter',
          email_visible_to_committees: false,
          memberships: [],
          two_factor: {
            totp: false,
            webauthn: 0,
            recovery_codes_left: 0,
            required: false,
            passkeys: [],
            trusted_devices: [],
          },
        },
      });
    });

    it('needs a signed-in user', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/account' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
    });
  });

  describe('PUT /api/v1/account', () => {
    it('lets a Vertreter change the password and ends every other session', async () => {
      const user = await createUser(t, { roles: ['Vertreter'] });
      const other = { headers: { authorization: `Bearer ${await sessionFor(t, user.id)}` } };

      const res = await putAccount(user, {
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
        current_password: TEST_PASSWORD,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ id: user.id, email: user.email, roles: ['Vertreter'] });
      expect(res.json().user).not.toHaveProperty('password');

      expect((await getAccount(user)).statusCode).toBe(200);
      expect((await getAccount(other)).statusCode).toBe(401);
      expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(401);
      expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);

      const audit = await accountAudit(user.id);
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!.details!)).toEqual({ changed: ['password'] });
      expect(audit[0]!.actor_id).toBe(user.id);
      expect(JSON.stringify(audit)).not.toContain(NEW_PASSWORD);
    });

    it('refuses title, names and e-mail changes from a Vertreter (403) and changes nothing', async () => {
      const user = await createUser(t, { roles: ['Vertreter'], firstname: 'Karl' });
      const before = await storedUser(user.id);
      for (const change of [
        { firstname: 'Karla' },
        { lastname: 'Anders' },
        { title: 'Herr' },
        { email: 'neu-vertreter@example.org' },
      ]) {
        const res = await putAccount(user, {
          ...change,
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
          current_password: TEST_PASSWORD,
        });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ message: ACCOUNT_FIELDS_FORBIDDEN_MESSAGE });
      }
      expect(await storedUser(user.id)).toEqual(before);
      expect(await accountAudit(user.id)).toHaveLength(0);
    });

    it('accepts unchanged profile fields from a Vertreter, as a full form sends them', async () => {
      const user = await createUser(t, { roles: ['Vertreter'], title: 'Frau', firstname: 'Ida' });
      const data = await profileOf(user);
      const res = await putAccount(user, {
        title: data.title,
        firstname: ` ${data.firstname} `,
        lastname: data.lastname,
        email: data.email.toUpperCase(),
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
        current_password: TEST_PASSWORD,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toEqual(data);
    });

    it('refuses fields that are not part of the account, naming them (422), and changes nothing', async () => {
      const user = await createUser(t, { roles: ['Vertreter'] });
      const before = await storedUser(user.id);
      for (const payload of [
        { roles: ['Admin'], id: 1 },
        { two_factor_enabled: true, totp_secret: 'JBSWY3DPEHPK3PXP' },
        {
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
          current_password: TEST_PASSWORD,
          two_factor_enabled: false,
        },
      ]) {
        const res = await putAccount(user, payload);
        const unknown = Object.keys(payload).filter((key) => !key.includes('password'));
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toEqual({
          message: 'Die Eingaben sind ungültig.',
          errors: Object.fromEntries(unknown.map((key) => [key, ['Dieses Feld ist unbekannt.']])),
        });
      }
      expect(await storedUser(user.id)).toEqual(before);
      expect((await getAccount(user)).json().data.two_factor.totp).toBe(false);
      expect(await accountAudit(user.id)).toHaveLength(0);
    });

    it('changes the password only with the current one; a wrong one counts like a failed sign-in', async () => {
      const user = await createUser(t, { roles: ['Vertreter'] });
      const before = await storedUser(user.id);
      const change = (current_password?: string) =>
        putAccount(user, {
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
          ...(current_password === undefined ? {} : { current_password }),
        });

      const without = await change();
      expect(without.statusCode).toBe(422);
      expect(without.json().errors).toEqual({ current_password: ['Aktuelles Passwort ist erforderlich.'] });
      const wrong = await change('Falsches-Kennwort-1');
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json()).toEqual({
        message: 'Das aktuelle Passwort ist nicht korrekt.',
        errors: { current_password: ['Das aktuelle Passwort ist nicht korrekt.'] },
      });
      expect(await storedUser(user.id)).toEqual(before);
      const failures = await t.db.kysely
        .selectFrom('audit_log')
        .select('action')
        .where('action', '=', 'auth.login_failed')
        .where('object_id', '=', user.id)
        .execute();
      expect(failures).toHaveLength(1);

      const right = await change(TEST_PASSWORD);
      expect(right.statusCode, right.body).toBe(200);
      expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('limits wrong current passwords like sign-ins: 429, the session ends, the member is mailed', async () => {
      const user = await createUser(t, { roles: ['Vertreter'], title: 'Frau', lastname: 'Probst' });
      const other = { headers: { authorization: `Bearer ${await sessionFor(t, user.id)}` } };
      await t.flushMail();
      const statuses: number[] = [];
      for (let attempt = 0; attempt < t.config.LOGIN_MAX_ATTEMPTS + 1; attempt += 1) {
        const res = await putAccount(user, {
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
          current_password: `Falsches-Kennwort-${attempt}`,
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.json().message).toEqual(expect.any(String));
          expect(res.headers['retry-after']).toEqual(expect.any(String));
        }
      }
      expect(statuses).toEqual([...Array(t.config.LOGIN_MAX_ATTEMPTS).fill(422), 429]);
      // The session that guessed has ended; the owner's other device stays signed in.
      expect((await getAccount(user)).statusCode).toBe(401);
      expect((await getAccount(other)).statusCode).toBe(200);
      // The sign-in shares the limit: the right password from this client waits too.
      expect((await login(user.email, TEST_PASSWORD)).statusCode).toBe(429);
      const mails = (await t.flushMail()).filter((mail) => mail.to === user.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe('Passwort zu oft falsch eingegeben – Gremienportal');
      expect(mails[0]!.text).toContain('Sehr geehrte Frau Probst,');
      expect(mails[0]!.text).toContain('Diese Sitzung wurde deshalb beendet.');
      expect(await storedUser(user.id)).toMatchObject({ password_hash: expect.any(String) });
    });

    it('lets an Admin change title, names and e-mail (stored lower case)', async () => {
      const admin = await createUser(t, { roles: ['Admin'], title: 'Frau' });
      const res = await putAccount(admin, {
        title: 'Herr',
        firstname: 'Bernd',
        lastname: 'Beispiel',
        email: 'Bernd.Beispiel@Example.org',
      });
      expect(res.statusCode).toBe(200);
      const expected = {
        id: admin.id,
        title: 'Herr',
        firstname: 'Bernd',
        lastname: 'Beispiel',
        email: 'bernd.beispiel@example.org',
        roles: ['Admin'],
        roles_string: 'Admin',
        email_visible_to_committees: false,
      };
      expect(res.json()).toEqual({ user: expected });
      expect(await profileOf(admin)).toEqual(expected);
      expect((await storedUser(admin.id)).email).toBe('bernd.beispiel@example.org');

      const audit = await accountAudit(admin.id);
      expect(JSON.parse(audit.at(-1)!.details!)).toEqual({
        changed: ['title', 'firstname', 'lastname', 'email'],
      });
      expect(audit.at(-1)!.object_label).toBe('Bernd Beispiel <bernd.beispiel@example.org>');
      expect((await login('bernd.beispiel@example.org', TEST_PASSWORD)).statusCode).toBe(200);
    });

    it('lets a Super-Admin change the own names too', async () => {
      const superAdmin = await createUser(t, { roles: ['Super-Admin'] });
      const res = await putAccount(superAdmin, { firstname: 'Sabine' });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.firstname).toBe('Sabine');
    });

    it('refuses an e-mail address another account uses, whatever its case', async () => {
      const admin = await createUser(t, { roles: ['Admin'] });
      const other = await createUser(t);
      const res = await putAccount(admin, { email: other.email.toUpperCase() });
      expect(res.statusCode).toBe(422);
      const message = 'Diese E-Mail-Adresse wird bereits verwendet.';
      expect(res.json()).toEqual({ message, errors: { email: [message] } });
      expect((await storedUser(admin.id)).email).toBe(admin.email);
    });

    it('gives an address to exactly one of two admins claiming it at once', async () => {
      const first = await createUser(t, { roles: ['Admin'] });
      const second = await createUser(t, { roles: ['Admin'] });
      const email = 'begehrt@example.org';
      const results = await Promise.all([putAccount(first, { email }), putAccount(second, { email })]);
      expect(results.map((res) => res.statusCode).sort()).toEqual([200, 422]);
      const loser = results.find((res) => res.statusCode === 422)!;
      expect(loser.json().errors).toEqual({ email: ['Diese E-Mail-Adresse wird bereits verwendet.'] });
      const owners = await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(owners).toHaveLength(1);
    });

    it('refuses the own e-mail address as password, also a newly chosen one', async () => {
      const admin = await createUser(t, { roles: ['Admin'] });
      const same = await putAccount(admin, {
        password: admin.email,
        password_confirmation: admin.email,
        current_password: TEST_PASSWORD,
      });
      expect(same.statusCode).toBe(422);
      expect(same.json().errors).toEqual({ password: [msg.passwordIsEmail] });

      const fresh = 'ganz-neu@example.org';
      const both = await putAccount(admin, {
        email: fresh,
        password: fresh,
        password_confirmation: fresh,
        current_password: TEST_PASSWORD,
      });
      expect(both.statusCode).toBe(422);
      expect(both.json().errors).toEqual({ password: [msg.passwordIsEmail] });
      expect((await storedUser(admin.id)).email).toBe(admin.email);
    });

    it('answers an empty change with the account and records nothing', async () => {
      const user = await createUser(t, { roles: ['Aufsichtsrat'] });
      const res = await putAccount(user, {});
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toEqual(await profileOf(user));
      expect(await accountAudit(user.id)).toHaveLength(0);
    });

    it('validates every sent field in German', async () => {
      const admin = await createUser(t, { roles: ['Admin'] });
      const cases: [unknown, Record<string, string[]>][] = [
        [{ firstname: 'Al' }, { firstname: ['Vorname muss mindestens 3 Zeichen lang sein.'] }],
        [{ lastname: 'x'.repeat(256) }, { lastname: ['Nachname darf höchstens 255 Zeichen lang sein.'] }],
        [{ title: 'Dr.' }, { title: ['Bitte Herr oder Frau wählen.'] }],
        [{ email: 'keine-adresse' }, { email: ['Bitte eine gültige E-Mail-Adresse eingeben.'] }],
        [{ firstname: 123 }, { firstname: ['Vorname ist erforderlich.'] }],
        [
          {
            password: NEW_PASSWORD,
            password_confirmation: 'Etwas-Anderes-99',
            current_password: TEST_PASSWORD,
          },
          { password_confirmation: [msg.passwordMismatch] },
        ],
        [
          { password: NEW_PASSWORD, current_password: TEST_PASSWORD },
          { password_confirmation: ['Passwortbestätigung ist erforderlich.'] },
        ],
        [
          { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
          { current_password: ['Aktuelles Passwort ist erforderlich.'] },
        ],
        [
          { password: 'kurz', password_confirmation: 'kurz', current_password: TEST_PASSWORD },
          {
            password: ['Neues Passwort muss mindestens 6 Zeichen lang sein.'],
            password_confirmation: ['Passwortbestätigung muss mindestens 6 Zeichen lang sein.'],
          },
        ],
        [
          { password: 'qwertz123', password_confirmation: 'qwertz123', current_password: TEST_PASSWORD },
          { password: [msg.passwordCommon] },
        ],
      ];
      for (const [payload, errors] of cases) {
        const res = await putAccount(admin, payload);
        expect({ payload, status: res.statusCode }).toEqual({ payload, status: 422 });
        expect(res.json()).toEqual({ message: 'Die Eingaben sind ungültig.', errors });
      }
    });

    it('answers malformed, oversized and foreign bodies with German messages', async () => {
      const user = await createUser(t, { roles: ['Vertreter'] });
      const send = (payload: string, contentType: string) =>
        t.app.inject({
          method: 'PUT',
          url: '/api/v1/account',
          headers: { ...user.headers, 'content-type': contentType },
          payload,
        });
      const malformed = await send('{"password": ', 'application/json');
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ message: 'Die Anfrage enthält kein gültiges JSON.' });

      const xml = await send('<account/>', 'application/xml');
      expect(xml.statusCode).toBe(415);
      expect(xml.json()).toEqual({ message: 'Dieses Datenformat wird nicht unterstützt.' });

      const huge = await send(JSON.stringify({ firstname: 'x'.repeat(64 * 1024) }), 'application/json');
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toEqual({ message: 'Die Anfrage ist zu groß.' });

      const list = await send('[]', 'application/json');
      expect(list.statusCode).toBe(400);
      expect(list.json()).toEqual({ message: 'Die Anfrage ist ungültig.' });
    });

    it('needs a signed-in user, before reading the body', async () => {
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/account',
        payload: {
          password: NEW_PASSWORD,
          password_confirmation: NEW_PASSWORD,
          current_password: TEST_PASSWORD,
        },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
    });
  });

  describe('password links after an own change of password or e-mail address', () => {
    const LINK_PASSWORD = 'Link-Kennwort-2026';
    const forgot = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email } });
    const reset = (link: { id: number; token: string }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/password-reset',
        payload: { ...link, password: LINK_PASSWORD, password_confirmation: LINK_PASSWORD },
      });
    /** Requests a reset link and returns it from the mail the worker queued and the sender sent. */
    async function requestLink(email: string): Promise<{ id: number; token: string }> {
      expect((await forgot(email)).statusCode).toBe(200);
      const mail = (await t.flushMail()).findLast((m) => m.to === email);
      const match = /reset-password\?id=(\d+)&token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '');
      if (!match) throw new Error(`Kein Link in der E-Mail an ${email}`);
      return { id: Number(match[1]), token: match[2]! };
    }
    const expectLinkRefused = async (link: { id: number; token: string }) => {
      const res = await reset(link);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: RESET_TOKEN_INVALID_MESSAGE,
        errors: { token: [RESET_TOKEN_INVALID_MESSAGE] },
      });
    };

    it('refuses a reset link requested before the own password change (422)', async () => {
      const user = await createUser(t, { roles: ['Vertreter'] });
      const link = await requestLink(user.email);
      const res = await putAccount(user, {
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
        current_password: TEST_PASSWORD,
      });
      expect(res.statusCode).toBe(200);
      await expectLinkRefused(link);
      expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
      expect((await login(user.email, LINK_PASSWORD)).statusCode).toBe(401);
    });

    it('refuses a link mailed to the old address after an Admin changed the own address (422)', async () => {
      const admin = await createUser(t, { roles: ['Admin'] });
      const link = await requestLink(admin.email);
      const newEmail = `neu-${admin.email}`;
      expect((await putAccount(admin, { email: newEmail })).statusCode).toBe(200);
      await expectLinkRefused(link);
      expect((await login(newEmail, TEST_PASSWORD)).statusCode).toBe(200);
    });

    it('revokes the link together with the change: a change that fails keeps it', async () => {
      const admin = await createUser(t, { roles: ['Admin'] });
      const other = await createUser(t, { roles: ['Vertreter'] });
      const link = await requestLink(admin.email);
      expect((await putAccount(admin, { email: other.email })).statusCode).toBe(422);
      expect((await reset(link)).statusCode).toBe(200);
    });

    it('drops a reset request still waiting for the worker, so no link is mailed after the change', async () => {
      const user = await createUser(t, { roles: ['Vertreter'] });
      const admin = await createUser(t, { roles: ['Admin'] });
      expect((await forgot(user.email)).statusCode).toBe(200);
      expect((await forgot(admin.email)).statusCode).toBe(200);
      expect(
        (
          await putAccount(user, {
            password: NEW_PASSWORD,
            password_confirmation: NEW_PASSWORD,
            current_password: TEST_PASSWORD,
          })
        ).statusCode,
      ).toBe(200);
      expect((await putAccount(admin, { email: `neu-${admin.email}` })).statusCode).toBe(200);
      const sent = await t.flushMail();
      expect(sent.filter((m) => m.to === user.email || m.to.endsWith(admin.email))).toEqual([]);
      const open = await t.db.kysely
        .selectFrom('password_tokens')
        .select('id')
        .where('user_id', 'in', [user.id, admin.id])
        .where('used_at', 'is', null)
        .execute();
      expect(open).toEqual([]);
    });
  });
});
