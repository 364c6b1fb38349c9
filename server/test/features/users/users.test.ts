// Over 300 lines: all of user administration (/user, invitations, Super-Admin and last-Super-Admin rules) in
// one file; every part uses the same helpers for creation through the API, audit rows and invitation links.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_ROLES_GRANT_FORBIDDEN_MESSAGE,
  ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE,
  ALREADY_ACTIVE_MESSAGE,
  EMAIL_TAKEN_MESSAGE,
  LAST_SUPER_ADMIN_MESSAGE,
  ROLES_REQUIRED_MESSAGE,
  SELF_DELETE_FORBIDDEN_MESSAGE,
  type User,
} from '@gremienportal/contracts/users';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, roleIds, sessionFor, type TestUser } from '../../support/factories.ts';
import type { RoleName } from '@gremienportal/contracts/common';

type RoleUsers = Awaited<ReturnType<typeof createRoleUsers>>;
type Who = keyof RoleUsers | 'anonymous';
const SIGNED_IN = ['vertreter', 'aufsichtsrat', 'admin', 'superAdmin'] as const;
const EVERYONE: Who[] = ['anonymous', ...SIGNED_IN];

let seq = 0;
const uniqueEmail = (prefix = 'neu') => `${prefix}${(seq += 1)}-${Date.now()}@example.org`;

function headersOf(users: RoleUsers, who: Who) {
  return who === 'anonymous' ? {} : users[who].headers;
}

async function createViaApi(
  t: TestApp,
  actor: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<{ status: number; body: any }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/user',
    headers: actor.headers,
    payload: {
      title: 'Frau',
      firstname: 'Erika',
      lastname: 'Mustermann',
      email: uniqueEmail(),
      roles: ['Vertreter'],
      ...overrides,
    },
  });
  return { status: res.statusCode, body: res.json() };
}

/** The user administration's audit entries about one user (sign-ins and the like left out). */
async function auditOf(t: TestApp, objectId: number) {
  const rows = await t.db.kysely
    .selectFrom('audit_log')
    .selectAll()
    .where('object_type', '=', 'user')
    .where('object_id', '=', objectId)
    .where('action', 'like', 'user.%')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, details: row.details ? JSON.parse(row.details) : null }));
}

const LINK = /http:\/\/portal\.test\/willkommen\?id=(\d+)&token=([\w-]+)/;

async function invitationLinkFor(t: TestApp, email: string) {
  const sent = (await t.flushMail()).filter((mail) => mail.to === email);
  const mail = sent.at(-1);
  expect(mail, `keine E-Mail an ${email}`).toBeDefined();
  const match = LINK.exec(mail!.text);
  expect(match, mail!.text).not.toBeNull();
  return { mail: mail!, id: Number(match![1]), token: match![2]!, count: sent.length };
}

async function setPassword(t: TestApp, link: { id: number; token: string }, password = 'Neues-Passwort-77') {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/password-reset',
    payload: { id: link.id, token: link.token, password, password_confirmation: password },
  });
}

describe('user administration: who may call what', () => {
  let t: TestApp;
  let users: RoleUsers;
  let target: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    target = await createUser(t, { roles: ['Vertreter'], lastname: 'Zielperson' });
  });
  afterAll(() => t.close());

  const expected: Record<Who, number> = {
    anonymous: 401,
    vertreter: 403,
    aufsichtsrat: 403,
    admin: 200,
    superAdmin: 200,
  };

  it.each(EVERYONE)('GET /user as %s', async (who) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: headersOf(users, who) });
    expect(res.statusCode).toBe(expected[who]);
    if (res.statusCode === 200) {
      const emails = (res.json().data as User[]).map((u) => u.email);
      expect(emails).toEqual(
        expect.arrayContaining([users.vertreter.email, target.email, 'admin@example.org']),
      );
    } else {
      expect(res.json().message).toBe(
        who === 'anonymous' ? 'Bitte melden Sie sich an.' : 'Dafür fehlt Ihnen die Berechtigung.',
      );
      expect(res.json().data).toBeUndefined();
    }
  });

  it.each(EVERYONE)('GET /user/{other id} as %s', async (who) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/${target.id}`,
      headers: headersOf(users, who),
    });
    expect(res.statusCode).toBe(expected[who]);
    if (res.statusCode === 200) expect(res.json().data.email).toBe(target.email);
    else expect(res.json().data).toBeUndefined();
  });

  it.each(SIGNED_IN)('GET /user/{own id} as %s', async (who) => {
    const self = users[who];
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/user/${self.id}`, headers: self.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: self.id, email: self.email, status: 'aktiv' });
  });

  it('a non-admin learns nothing about ids that do not exist', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/user/99999',
      headers: users.vertreter.headers,
    });
    expect(res.statusCode).toBe(403);
  });

  it.each(EVERYONE)('POST /user as %s', async (who) => {
    const email = uniqueEmail('post');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: headersOf(users, who),
      payload: { title: 'Herr', firstname: 'Max', lastname: 'Muster', email, roles: ['Vertreter'] },
    });
    expect(res.statusCode).toBe(expected[who] === 200 ? 201 : expected[who]);
    const row = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(Boolean(row)).toBe(res.statusCode === 201);
  });

  it.each(EVERYONE)('POST /auth/register (alias of the creation) as %s', async (who) => {
    const email = uniqueEmail('register');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      headers: headersOf(users, who),
      payload: { title: 'Frau', firstname: 'Maria', lastname: 'Muster', email, roles: ['Aufsichtsrat'] },
    });
    expect(res.statusCode).toBe(expected[who] === 200 ? 201 : expected[who]);
    if (res.statusCode === 201) {
      expect(res.json().user).toMatchObject({ email, roles: ['Aufsichtsrat'], status: 'eingeladen' });
    }
    const row = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(Boolean(row)).toBe(res.statusCode === 201);
  });

  it.each(EVERYONE)('PUT /user/{id} as %s', async (who) => {
    const subject = await createUser(t, { roles: ['Vertreter'], lastname: 'Vorher' });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${subject.id}`,
      headers: headersOf(users, who),
      payload: { title: 'Herr', firstname: 'Neuer', lastname: 'Nachher', email: subject.email },
    });
    expect(res.statusCode).toBe(expected[who]);
    const row = await t.db.kysely
      .selectFrom('users')
      .select('lastname')
      .where('id', '=', subject.id)
      .executeTakeFirstOrThrow();
    expect(row.lastname).toBe(res.statusCode === 200 ? 'Nachher' : 'Vorher');
  });

  it.each(SIGNED_IN)('PUT /user/{own id} as %s', async (who) => {
    const self = users[who];
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${self.id}`,
      headers: self.headers,
      payload: { title: 'Frau', firstname: 'Eigene', lastname: 'Änderung', email: self.email },
    });
    // Non-admins have no user administration; a plain Admin holds an admin role (product.md P1.3).
    const status = { vertreter: 403, aufsichtsrat: 403, admin: 403, superAdmin: 200 }[who];
    expect(res.statusCode).toBe(status);
  });

  it.each(EVERYONE)('DELETE /user/{id} as %s', async (who) => {
    const subject = await createUser(t, { roles: ['Vertreter'] });
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${subject.id}`,
      headers: headersOf(users, who),
    });
    expect(res.statusCode).toBe(expected[who] === 200 ? 204 : expected[who]);
    if (res.statusCode === 204) expect(res.body).toBe('');
    const row = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('id', '=', subject.id)
      .executeTakeFirst();
    expect(Boolean(row)).toBe(res.statusCode !== 204);
  });

  it.each(EVERYONE)('POST /user/{id}/invitation as %s', async (who) => {
    const invited = await createViaApi(t, users.superAdmin);
    expect(invited.status).toBe(201);
    const before = (await t.flushMail()).length;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user/${invited.body.user.id}/invitation`,
      headers: headersOf(users, who),
    });
    expect(res.statusCode).toBe(expected[who]);
    const after = (await t.flushMail()).length;
    expect(after - before).toBe(res.statusCode === 200 ? 1 : 0);
  });

  it('answers 404 for users that do not exist and for malformed ids', async () => {
    const h = users.admin.headers;
    for (const url of ['/api/v1/user/99999', '/api/v1/user/abc', '/api/v1/user/-1', '/api/v1/user/1.5']) {
      expect((await t.app.inject({ method: 'GET', url, headers: h })).statusCode).toBe(404);
    }
    const body = { title: 'Herr', firstname: 'Max', lastname: 'Muster', email: uniqueEmail() };
    const put = await t.app.inject({ method: 'PUT', url: '/api/v1/user/99999', headers: h, payload: body });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual({ message: 'Nicht gefunden.' });
    const del = await t.app.inject({ method: 'DELETE', url: '/api/v1/user/99999', headers: h });
    expect(del.statusCode).toBe(404);
    const inv = await t.app.inject({ method: 'POST', url: '/api/v1/user/99999/invitation', headers: h });
    expect(inv.statusCode).toBe(404);
  });
});

describe('user administration: reading, creating, updating', () => {
  let t: TestApp;
  let users: RoleUsers;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
  });
  afterAll(() => t.close());

  it('lists users sorted by last name, then first name, with roles and status', async () => {
    await createUser(t, { firstname: 'Zora', lastname: 'Aaberg', roles: ['Aufsichtsrat', 'Vertreter'] });
    await createUser(t, { firstname: 'Anna', lastname: 'Aaberg', roles: ['Vertreter'] });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: users.admin.headers });
    const list = res.json().data as User[];
    const sorted = [...list].sort(
      (a, b) => a.lastname.localeCompare(b.lastname, 'en') || a.firstname.localeCompare(b.firstname, 'en'),
    );
    expect(list.map((u) => u.id)).toEqual(sorted.map((u) => u.id));
    expect(list.slice(0, 2).map((u) => u.firstname)).toEqual(['Anna', 'Zora']);
    expect(list[1]).toMatchObject({
      roles: ['Aufsichtsrat', 'Vertreter'],
      roles_string: 'Aufsichtsrat, Vertreter',
      status: 'aktiv',
    });
    expect(Object.keys(list[0]!).sort()).toEqual(
      [
        'created_at',
        'effective_roles',
        'email',
        'firstname',
        'id',
        'lastname',
        'roles',
        'roles_string',
        'status',
        'title',
        'two_factor',
      ].sort(),
    );
    expect(JSON.stringify(list)).not.toMatch(/password|hash|argon/i);
  });

  it('creates a user with roles given as ids, numeric strings or names and answers 201 { user }', async () => {
    const [aufsichtsrat, vertreter] = await roleIds(t, ['Aufsichtsrat', 'Vertreter']);
    const email = uniqueEmail('Gross').replace('gross', 'GROSS');
    const res = await createViaApi(t, users.admin, {
      title: 'Herr',
      firstname: '  Jürgen ',
      lastname: 'Großmann',
      email: `  ${email.toUpperCase()} `,
      roles: [aufsichtsrat, String(vertreter), 'vertreter'],
    });
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      title: 'Herr',
      firstname: 'Jürgen',
      lastname: 'Großmann',
      email: email.toLowerCase(),
      roles: ['Aufsichtsrat', 'Vertreter'],
      roles_string: 'Aufsichtsrat, Vertreter',
      effective_roles: [
        { id: aufsichtsrat, name: 'Aufsichtsrat', sources: ['direct'], committee: null },
        { id: vertreter, name: 'Vertreter', sources: ['direct'], committee: null },
      ],
      status: 'eingeladen',
      two_factor: false,
      created_at: t.clock.now().toISOString(),
    });
    const row = await t.db.kysely
      .selectFrom('users')
      .select(['password_hash'])
      .where('id', '=', res.body.user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/${res.body.user.id}`,
      headers: users.admin.headers,
    });
    expect(got.json()).toEqual({ data: { ...res.body.user, memberships: [] } });
  });

  it('validates the creation with German messages under the fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: users.admin.headers,
      payload: { title: 'Dr', firstname: 'Al', lastname: '  ', email: 'kein-mail', roles: [] },
    });
    expect(res.statusCode).toBe(422);
    const { message, errors } = res.json();
    expect(message).toBe('Die Eingaben sind ungültig.');
    expect(errors.title).toEqual(['Bitte Herr oder Frau wählen.']);
    expect(errors.firstname).toEqual(['Vorname muss mindestens 3 Zeichen lang sein.']);
    expect(errors.lastname).toEqual(['Nachname ist erforderlich.']);
    expect(errors.email).toEqual(['Bitte eine gültige E-Mail-Adresse eingeben.']);
    expect(errors.roles).toEqual([ROLES_REQUIRED_MESSAGE]);

    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: users.admin.headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual([
      'email',
      'firstname',
      'lastname',
      'roles',
      'title',
    ]);
    expect(missing.json().errors.roles).toEqual([ROLES_REQUIRED_MESSAGE]);
    expect(missing.json().errors.firstname).toEqual(['Vorname ist erforderlich.']);
  });

  it('refuses unknown roles with 422 under roles and creates nothing', async () => {
    const email = uniqueEmail('unknown');
    const res = await createViaApi(t, users.admin, { email, roles: ['Vertreter', 'Kassenwart', 999] });
    expect(res.status).toBe(422);
    expect(res.body.errors.roles).toEqual([
      'Die Rolle „Kassenwart“ gibt es nicht.',
      'Die Rolle „999“ gibt es nicht.',
    ]);
    const row = await t.db.kysely
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('refuses a duplicate e-mail address regardless of case, on create and update', async () => {
    const first = await createViaApi(t, users.admin, { email: uniqueEmail('doppelt') });
    expect(first.status).toBe(201);
    const taken = first.body.user.email as string;
    const again = await createViaApi(t, users.admin, { email: taken.toUpperCase() });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: EMAIL_TAKEN_MESSAGE, errors: { email: [EMAIL_TAKEN_MESSAGE] } });
    const alsoAdmin = await createViaApi(t, users.superAdmin, { email: 'ADMIN@example.org' });
    expect(alsoAdmin.status).toBe(422);

    const other = await createUser(t, { roles: ['Vertreter'] });
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${other.id}`,
      headers: users.admin.headers,
      payload: { title: 'Frau', firstname: 'Erika', lastname: 'Muster', email: taken.toUpperCase() },
    });
    expect(put.statusCode).toBe(422);
    expect(put.json().errors.email).toEqual([EMAIL_TAKEN_MESSAGE]);
    // Keeping one's own address is no clash.
    const own = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${other.id}`,
      headers: users.admin.headers,
      payload: { title: 'Frau', firstname: 'Erika', lastname: 'Muster', email: other.email.toUpperCase() },
    });
    expect(own.statusCode).toBe(200);
  });

  it('only one of two simultaneous creations with the same address succeeds', async () => {
    const email = uniqueEmail('gleichzeitig');
    const results = await Promise.all([
      createViaApi(t, users.admin, { email }),
      createViaApi(t, users.superAdmin, { email }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
    expect(results.find((r) => r.status === 422)!.body.errors.email).toEqual([EMAIL_TAKEN_MESSAGE]);
  });

  it('updates fields and roles, answers { user } and records what changed', async () => {
    const created = await createViaApi(t, users.admin, { roles: ['Vertreter'] });
    const id = created.body.user.id as number;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${id}`,
      headers: users.admin.headers,
      payload: {
        title: 'Herr',
        firstname: 'Erika',
        lastname: 'Neuname',
        email: created.body.user.email,
        roles: ['Aufsichtsrat'],
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      id,
      title: 'Herr',
      lastname: 'Neuname',
      roles: ['Aufsichtsrat'],
      roles_string: 'Aufsichtsrat',
    });
    const audit = await auditOf(t, id);
    expect(audit.map((a) => a.action)).toEqual([
      'user.created',
      'user.invited',
      'user.updated',
      'user.roles_changed',
    ]);
    expect(audit[0]!.details).toEqual({ roles: ['Vertreter'] });
    expect(audit[2]!.details).toEqual({ changed: ['title', 'lastname'] });
    expect(audit[3]!.details).toEqual({ old_roles: ['Vertreter'], new_roles: ['Aufsichtsrat'] });
    expect(audit[2]).toMatchObject({
      actor_id: users.admin.id,
      object_label: `Erika Neuname <${created.body.user.email}>`,
    });
    expect(audit[2]!.actor_label).toContain(users.admin.email);
    expect(audit[2]!.ip).toBeTruthy();
  });

  it('keeps the roles when an update leaves them out, and refuses an empty role list', async () => {
    const subject = await createUser(t, { roles: ['Aufsichtsrat', 'Vertreter'] });
    const base = { title: 'Frau', firstname: 'Erika', lastname: 'Behalten', email: subject.email };
    const kept = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${subject.id}`,
      headers: users.admin.headers,
      payload: base,
    });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().user.roles).toEqual(['Aufsichtsrat', 'Vertreter']);
    const emptied = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${subject.id}`,
      headers: users.admin.headers,
      payload: { ...base, roles: [] },
    });
    expect(emptied.statusCode).toBe(422);
    expect(emptied.json().errors.roles).toEqual([ROLES_REQUIRED_MESSAGE]);
    const audit = await auditOf(t, subject.id);
    expect(audit.map((a) => a.action)).toEqual(['user.updated']);
  });

  it('validates the update with German messages', async () => {
    const subject = await createUser(t, { roles: ['Vertreter'] });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${subject.id}`,
      headers: users.admin.headers,
      payload: { title: '', firstname: 'Ab', lastname: 'x'.repeat(300), email: 'a@b', roles: ['Nirgendwo'] },
    });
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(errors.title).toEqual(['Bitte Herr oder Frau wählen.']);
    expect(errors.firstname).toEqual(['Vorname muss mindestens 3 Zeichen lang sein.']);
    expect(errors.lastname).toEqual(['Nachname darf höchstens 255 Zeichen lang sein.']);
    expect(errors.email).toEqual(['Bitte eine gültige E-Mail-Adresse eingeben.']);

    const unknownRole = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${subject.id}`,
      headers: users.admin.headers,
      payload: {
        title: 'Frau',
        firstname: 'Erika',
        lastname: 'Muster',
        email: subject.email,
        roles: ['Nirgendwo'],
      },
    });
    expect(unknownRole.statusCode).toBe(422);
    expect(unknownRole.json().errors.roles).toEqual(['Die Rolle „Nirgendwo“ gibt es nicht.']);
  });

  it('rejects bodies that are not JSON objects without a 500', async () => {
    for (const payload of ['[]', '"x"', 'null', '{"roles": "Vertreter"}', '{"roles": [{}]}']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        headers: { ...users.admin.headers, 'content-type': 'application/json' },
        payload,
      });
      expect([400, 422]).toContain(res.statusCode);
      expect(res.json().message).toMatch(/[äöüÄÖÜß]|ungültig/);
    }
  });
});

describe('user administration: Super-Admin rules (product.md P1.3)', () => {
  let t: TestApp;
  let users: RoleUsers;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
  });
  afterAll(() => t.close());

  const put = (actor: TestUser, id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: `/api/v1/user/${id}`, headers: actor.headers, payload });
  const bodyOf = (user: TestUser, roles: RoleName[], lastname = 'Muster') => ({
    title: 'Frau',
    firstname: 'Erika',
    lastname,
    email: user.email,
    roles,
  });

  it.each(['Admin', 'Super-Admin'] as const)(
    'only a Super-Admin creates a user with the role %s',
    async (role) => {
      const byAdmin = await createViaApi(t, users.admin, { roles: ['Vertreter', role] });
      expect(byAdmin.status).toBe(403);
      expect(byAdmin.body).toEqual({ message: ADMIN_ROLES_GRANT_FORBIDDEN_MESSAGE });
      const bySuper = await createViaApi(t, users.superAdmin, { roles: [role] });
      expect(bySuper.status).toBe(201);
      expect(bySuper.body.user.roles).toEqual([role]);
    },
  );

  it.each(['Admin', 'Super-Admin'] as const)('only a Super-Admin grants the role %s', async (role) => {
    const subject = await createUser(t, { roles: ['Vertreter'] });
    const byAdmin = await put(users.admin, subject.id, bodyOf(subject, ['Vertreter', role]));
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toBe(ADMIN_ROLES_GRANT_FORBIDDEN_MESSAGE);
    const bySuper = await put(users.superAdmin, subject.id, bodyOf(subject, ['Vertreter', role]));
    expect(bySuper.statusCode).toBe(200);
    expect(bySuper.json().user.roles).toEqual(
      role === 'Admin' ? ['Admin', 'Vertreter'] : ['Super-Admin', 'Vertreter'],
    );
  });

  it.each(['Admin', 'Super-Admin'] as const)(
    'only a Super-Admin changes, revokes, deletes or re-invites a holder of %s',
    async (role) => {
      const holder = await createUser(t, { roles: [role, 'Vertreter'] });
      const renamed = await put(users.admin, holder.id, bodyOf(holder, [role, 'Vertreter'], 'Umbenannt'));
      expect(renamed.statusCode).toBe(403);
      expect(renamed.json().message).toBe(ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE);
      const revoked = await put(users.admin, holder.id, bodyOf(holder, ['Vertreter']));
      expect(revoked.statusCode).toBe(403);
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/user/${holder.id}`,
        headers: users.admin.headers,
      });
      expect(deleted.statusCode).toBe(403);
      expect(deleted.json().message).toBe(ADMIN_USER_CHANGE_FORBIDDEN_MESSAGE);
      const invited = await t.app.inject({
        method: 'POST',
        url: `/api/v1/user/${holder.id}/invitation`,
        headers: users.admin.headers,
      });
      expect(invited.statusCode).toBe(403);
      const row = await t.db.kysely
        .selectFrom('users')
        .select('lastname')
        .where('id', '=', holder.id)
        .executeTakeFirstOrThrow();
      expect(row.lastname).not.toBe('Umbenannt');
      expect((await auditOf(t, holder.id)).length).toBe(0);

      const bySuper = await put(users.superAdmin, holder.id, bodyOf(holder, ['Vertreter'], 'Umbenannt'));
      expect(bySuper.statusCode).toBe(200);
      expect(bySuper.json().user).toMatchObject({ lastname: 'Umbenannt', roles: ['Vertreter'] });
      const gone = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/user/${holder.id}`,
        headers: users.superAdmin.headers,
      });
      expect(gone.statusCode).toBe(204);
    },
  );

  it('lets a plain Admin manage users without admin roles', async () => {
    const subject = await createUser(t, { roles: ['Vertreter'] });
    const res = await put(users.admin, subject.id, bodyOf(subject, ['Aufsichtsrat'], 'Geändert'));
    expect(res.statusCode).toBe(200);
    expect(res.json().user.roles).toEqual(['Aufsichtsrat']);
  });

  it('refuses self-deletion, for Admins and Super-Admins alike', async () => {
    for (const self of [users.admin, users.superAdmin]) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: `/api/v1/user/${self.id}`,
        headers: self.headers,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: SELF_DELETE_FORBIDDEN_MESSAGE });
      const row = await t.db.kysely
        .selectFrom('users')
        .select('id')
        .where('id', '=', self.id)
        .executeTakeFirst();
      expect(row).toBeDefined();
    }
  });
});

describe('user administration: the last Super-Admin', () => {
  let t: TestApp;
  // Each case starts from a fresh portal, whose initial administrator is its only Super-Admin.
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(() => t.close());

  const demote = (actor: TestUser, target: TestUser, roles: RoleName[] = ['Admin']) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${target.id}`,
      headers: actor.headers,
      payload: { title: 'Frau', firstname: 'Erika', lastname: 'Muster', email: target.email, roles },
    });

  async function superAdminIds() {
    const rows = await t.db.kysely
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select('user_roles.user_id')
      .where('roles.name', '=', 'Super-Admin')
      .execute();
    return rows.map((row) => row.user_id).sort((a, b) => a - b);
  }

  async function initialAdmin(): Promise<TestUser> {
    const row = await t.db.kysely
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', '=', 'admin@example.org')
      .executeTakeFirstOrThrow();
    const token = await sessionFor(t, row.id);
    return {
      id: row.id,
      email: row.email,
      password: '',
      token,
      headers: { authorization: `Bearer ${token}` },
    };
  }

  /** Two Super-Admins and nobody else with the role. */
  async function twoSuperAdmins() {
    const a = await createUser(t, { roles: ['Super-Admin'] });
    const b = await createUser(t, { roles: ['Super-Admin'] });
    await t.db.kysely.deleteFrom('users').where('email', '=', 'admin@example.org').execute();
    expect(await superAdminIds()).toEqual([a.id, b.id]);
    return { a, b };
  }

  it('keeps the role when the only Super-Admin tries to give it up', async () => {
    const me = await initialAdmin();
    expect(await superAdminIds()).toEqual([me.id]);
    const res = await demote(me, me, ['Admin']);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: LAST_SUPER_ADMIN_MESSAGE,
      errors: { roles: [LAST_SUPER_ADMIN_MESSAGE] },
    });
    expect(await superAdminIds()).toEqual([me.id]);
    // Other changes to the same account stay possible.
    const rename = await demote(me, me, ['Super-Admin', 'Aufsichtsrat']);
    expect(rename.statusCode).toBe(200);
    expect(rename.json().user.roles).toEqual(['Super-Admin', 'Aufsichtsrat']);
  });

  it('lets a Super-Admin step down while another one remains', async () => {
    const { a, b } = await twoSuperAdmins();
    const res = await demote(a, a, ['Admin']);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.roles).toEqual(['Admin']);
    expect(await superAdminIds()).toEqual([b.id]);
    const last = await demote(b, b, ['Admin']);
    expect(last.statusCode).toBe(422);
    // a is a plain Admin now (roles are read per request) and may no longer touch b.
    const byA = await demote(a, b, ['Vertreter']);
    expect(byA.statusCode).toBe(403);
    expect(await superAdminIds()).toEqual([b.id]);
  });

  it('of two Super-Admins demoting each other at the same time, exactly one succeeds', async () => {
    const { a, b } = await twoSuperAdmins();
    const results = await Promise.all([demote(a, b), demote(b, a)]);
    const statuses = results.map((r) => r.statusCode).sort();
    // The loser is refused by the last-Super-Admin rule, or, when its request was authenticated
    // only after the other demotion committed, as the plain Admin it has become.
    expect(statuses[0]).toBe(200);
    expect([403, 422]).toContain(statuses[1]);
    expect((await superAdminIds()).length).toBe(1);
  });

  it('of two Super-Admins deleting each other at the same time, exactly one succeeds', async () => {
    const { a, b } = await twoSuperAdmins();
    const del = (actor: TestUser, target: TestUser) =>
      t.app.inject({ method: 'DELETE', url: `/api/v1/user/${target.id}`, headers: actor.headers });
    const results = await Promise.all([del(a, b), del(b, a)]);
    const statuses = results.map((r) => r.statusCode).sort();
    // The loser is refused (last Super-Admin), already signed out (its account is gone before it
    // is authenticated), or refused for lack of rights (its account went between authentication
    // and the locked check, so it holds no role any more); never a second success.
    expect(statuses[0]).toBe(204);
    expect([401, 403, 422]).toContain(statuses[1]);
    expect((await superAdminIds()).length).toBe(1);
  });
});

describe('user administration: sessions and roles take effect at once', () => {
  let t: TestApp;
  let users: RoleUsers;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
  });
  afterAll(() => t.close());

  it("a deleted user's token is answered with 401 on the next request", async () => {
    const victim = await createUser(t, { roles: ['Vertreter'] });
    const before = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/${victim.id}`,
      headers: victim.headers,
    });
    expect(before.statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${victim.id}`,
      headers: users.admin.headers,
    });
    expect(del.statusCode).toBe(204);
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/${victim.id}`,
      headers: victim.headers,
    });
    expect(after.statusCode).toBe(401);
    const sessions = await t.db.kysely
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', victim.id)
      .execute();
    expect(sessions).toEqual([]);
    const audit = await auditOf(t, victim.id);
    expect(audit.map((a) => a.action)).toEqual(['user.deleted']);
    expect(audit[0]!.details).toEqual({ roles: ['Vertreter'] });
    expect(audit[0]!.object_label).toContain(victim.email);
  });

  it('a removed admin role is gone on the next request, a granted one is there', async () => {
    const colleague = await createUser(t, { roles: ['Admin'] });
    const list = () => t.app.inject({ method: 'GET', url: '/api/v1/user', headers: colleague.headers });
    expect((await list()).statusCode).toBe(200);
    const payload = (roles: RoleName[]) => ({
      title: 'Frau',
      firstname: 'Erika',
      lastname: 'Muster',
      email: colleague.email,
      roles,
    });
    const demoted = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${colleague.id}`,
      headers: users.superAdmin.headers,
      payload: payload(['Vertreter']),
    });
    expect(demoted.statusCode).toBe(200);
    expect((await list()).statusCode).toBe(403);
    const promoted = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${colleague.id}`,
      headers: users.superAdmin.headers,
      payload: payload(['Admin']),
    });
    expect(promoted.statusCode).toBe(200);
    expect((await list()).statusCode).toBe(200);
    const audit = await auditOf(t, colleague.id);
    expect(audit.filter((a) => a.action === 'user.roles_changed').map((a) => a.details)).toEqual([
      { old_roles: ['Admin'], new_roles: ['Vertreter'] },
      { old_roles: ['Vertreter'], new_roles: ['Admin'] },
    ]);
  });
});

describe('user administration: invitations', () => {
  let t: TestApp;
  let users: RoleUsers;
  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
  });
  afterAll(() => t.close());

  it('mails a German invitation with salutation and a one-time set-password link', async () => {
    const email = uniqueEmail('einladung');
    const created = await createViaApi(t, users.admin, { title: 'Frau', lastname: 'Einladung', email });
    expect(created.status).toBe(201);
    const id = created.body.user.id as number;
    const { mail, id: linkId, token } = await invitationLinkFor(t, email);
    expect(mail.subject).toBe('Einladung zum Gremienportal');
    expect(mail.text).toMatch(/^Sehr geehrte Frau Einladung,/);
    expect(mail.text).toContain('7 Tage');
    expect(mail.text).toContain(`Ihre Anmeldung erfolgt mit dieser E-Mail-Adresse: ${email}`);
    expect(mail.text).toContain('http://portal.test/login');
    expect(linkId).toBe(id);
    expect(token.length).toBeGreaterThanOrEqual(22);

    // Only the token's hash is stored.
    const stored = await t.db.kysely
      .selectFrom('password_tokens')
      .selectAll()
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.purpose).toBe('invite');
    expect(stored.token_hash).not.toContain(token);
    const audit = await auditOf(t, id);
    expect(audit.map((a) => a.action)).toEqual(['user.created', 'user.invited']);
    expect(JSON.stringify(audit)).not.toContain(token);

    const first = await setPassword(t, { id: linkId, token });
    expect(first.statusCode).toBe(200);
    // The invitation's link signs the new member in (decision 176).
    expect(first.json()).toMatchObject({
      message: 'Ihr Passwort ist festgelegt. Willkommen im Gremienportal!',
      sign_in: { token_type: 'Bearer', user: { id, email } },
    });
    const account = await t.app.inject({
      method: 'GET',
      url: '/api/v1/account',
      headers: { authorization: `Bearer ${first.json().sign_in.access_token}` },
    });
    expect(account.statusCode).toBe(200);
    const again = await setPassword(t, { id: linkId, token }, 'Anderes-Passwort-88');
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toMatch(/ungültig|abgelaufen/);

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: 'Neues-Passwort-77' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.roles).toEqual(['Vertreter']);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/v1/user/${id}`,
      headers: users.admin.headers,
    });
    expect(shown.json().data.status).toBe('aktiv');

    const resend = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user/${id}/invitation`,
      headers: users.admin.headers,
    });
    expect(resend.statusCode).toBe(422);
    expect(resend.json().message).toBe(ALREADY_ACTIVE_MESSAGE);
  });

  it('says "Sehr geehrter Herr" to men', async () => {
    const email = uniqueEmail('herr');
    await createViaApi(t, users.admin, { title: 'Herr', lastname: 'Schmidt', email });
    const { mail } = await invitationLinkFor(t, email);
    expect(mail.text).toMatch(/^Sehr geehrter Herr Schmidt,/);
  });

  it('queues no mail and stores no user when the creation fails', async () => {
    const outboxBefore = await t.db.kysely.selectFrom('outbox').select('id').execute();
    const res = await createViaApi(t, users.admin, { roles: ['Gibtsnicht'] });
    expect(res.status).toBe(422);
    const forbiddenRes = await createViaApi(t, users.admin, { roles: ['Admin'] });
    expect(forbiddenRes.status).toBe(403);
    const outboxAfter = await t.db.kysely.selectFrom('outbox').select('id').execute();
    expect(outboxAfter.length).toBe(outboxBefore.length);
  });

  it('sends the invitation again with a new link; the old link stops working', async () => {
    const email = uniqueEmail('erneut');
    const created = await createViaApi(t, users.admin, { email });
    const id = created.body.user.id as number;
    const oldLink = await invitationLinkFor(t, email);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user/${id}/invitation`,
      headers: users.admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Die Einladung wurde erneut gesendet.' });
    const newLink = await invitationLinkFor(t, email);
    expect(newLink.count).toBe(oldLink.count + 1);
    expect(newLink.token).not.toBe(oldLink.token);
    expect((await setPassword(t, oldLink)).statusCode).toBe(422);
    expect((await setPassword(t, newLink)).statusCode).toBe(200);
    const audit = await auditOf(t, id);
    expect(audit.map((a) => [a.action, a.details])).toEqual([
      ['user.created', { roles: ['Vertreter'] }],
      ['user.invited', null],
      ['user.invited', { reason: 'resent' }],
    ]);
  });

  it('a changed e-mail address voids the links sent to the old one and invites the new one', async () => {
    const oldEmail = uniqueEmail('alt');
    const created = await createViaApi(t, users.admin, { email: oldEmail });
    const id = created.body.user.id as number;
    const oldLink = await invitationLinkFor(t, oldEmail);
    const newEmail = uniqueEmail('korrigiert');
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${id}`,
      headers: users.admin.headers,
      payload: { title: 'Frau', firstname: 'Erika', lastname: 'Mustermann', email: newEmail },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: newEmail, status: 'eingeladen' });
    const newLink = await invitationLinkFor(t, newEmail);
    expect((await setPassword(t, oldLink)).statusCode).toBe(422);
    expect((await setPassword(t, newLink)).statusCode).toBe(200);
    const audit = await auditOf(t, id);
    expect(audit.map((a) => a.action)).toEqual([
      'user.created',
      'user.invited',
      'user.updated',
      'user.invited',
    ]);
    expect(audit[2]!.details).toEqual({ changed: ['email'], old_email: oldEmail, new_email: newEmail });
  });
});

describe('user administration: invitation links expire after 7 days', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('works just before 7 days and no longer after', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const superAdmin = await createUser(t, { roles: ['Super-Admin'] });
    const early = await createViaApi(t, superAdmin, { email: uniqueEmail('frueh') });
    const late = await createViaApi(t, superAdmin, { email: uniqueEmail('spaet') });
    const earlyLink = await invitationLinkFor(t, early.body.user.email);
    const lateLink = await invitationLinkFor(t, late.body.user.email);

    t.clock.advance(7 * DAY - 60_000);
    expect((await setPassword(t, earlyLink)).statusCode).toBe(200);
    t.clock.advance(2 * 60_000);
    const expired = await setPassword(t, lateLink);
    expect(expired.statusCode).toBe(422);
    expect(expired.json().message).toMatch(/ungültig|abgelaufen/);
    const row = await t.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', late.body.user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();

    // A new invitation helps: an Admin sends one again (the old admin session timed out meanwhile).
    const admin = await createUser(t, { roles: ['Admin'] });
    const resend = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user/${late.body.user.id}/invitation`,
      headers: admin.headers,
    });
    expect(resend.statusCode).toBe(200);
    const fresh = await invitationLinkFor(t, late.body.user.email);
    expect((await setPassword(t, fresh)).statusCode).toBe(200);
  });
});
