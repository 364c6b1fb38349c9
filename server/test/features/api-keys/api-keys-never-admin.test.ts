import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES } from '@gremienportal/contracts/api-keys';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, roleIds } from '../../support/factories.ts';

/**
 * Decision 146: a key acts with its issuer's rights narrowed by its scopes, and no scope grants,
 * keeps or removes Admin or Super-Admin or writes to an administrator's account, even when a
 * Super-Admin issued it. Every refused attempt is audited and changes nothing.
 */
describe('API-Schlüssel never act as an administrator over accounts', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let token: string;
  const bearer = () => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: users.superAdmin.headers,
      payload: { name: 'Mitgliederverwaltung', scopes: ['nutzer:lesen', 'nutzer:schreiben'] },
    });
    expect(res.statusCode, res.body).toBe(201);
    token = res.json().data.token;
  });
  afterAll(() => t?.close());

  const refusals = () =>
    t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', 'api_key.refused').execute();
  const rolesOf = async (id: number) =>
    (
      await t.db.kysely
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select('roles.name')
        .where('user_roles.user_id', '=', id)
        .orderBy('roles.name')
        .execute()
    ).map((row) => row.name);
  const expectRefused = (res: { statusCode: number; json: () => { message: string } }) => {
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(API_KEY_MESSAGES.adminAccountsOutOfReach);
  };

  it('creates no Super-Admin or Admin, and records the attempt', async () => {
    for (const roles of [['Super-Admin'], ['Admin'], ['Vertreter', 'Admin']]) {
      const email = `uebernahme-${roles.length}-${roles[roles.length - 1]!.toLowerCase()}@example.org`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        headers: bearer(),
        payload: { title: 'Herr', firstname: 'Fremd', lastname: 'Konto', email, roles },
      });
      expectRefused(res);
      const created = await t.db.kysely.selectFrom('users').select('id').where('email', '=', email).execute();
      expect(created).toEqual([]);
    }
    const entries = await refusals();
    expect(entries).toHaveLength(3);
    expect(entries[0]).toMatchObject({ actor_id: users.superAdmin.id, object_type: 'user', object_id: null });
    expect(entries[0]!.actor_label).toContain('über API-Schlüssel „Mitgliederverwaltung“');
    expect(JSON.parse(entries[0]!.details!)).toMatchObject({
      attempted: 'user.created',
      roles: ['Super-Admin'],
    });
    // No invitation went out.
    const mails = await t.flushMail();
    expect(mails.filter((mail) => mail.to.includes('uebernahme'))).toEqual([]);
  });

  it('changes, invites and deletes no administrator, and grants or revokes no admin role', async () => {
    const before = (await refusals()).length;
    const invitedAdmin = await createUser(t, { roles: ['Admin'] });
    await t.db.kysely
      .updateTable('users')
      .set({ password_hash: null })
      .where('id', '=', invitedAdmin.id)
      .execute();
    const member = await createUser(t, { roles: ['Vertreter'] });
    const put = (id: number, roles?: string[]) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/user/${id}`,
        headers: bearer(),
        payload: {
          title: 'Herr',
          firstname: 'Fremd',
          lastname: 'Geändert',
          email: `fremd-${id}@example.org`,
          ...(roles ? { roles } : {}),
        },
      });
    // An administrator's e-mail (a reset link to a new address would take the account over).
    for (const target of [users.admin, users.superAdmin]) {
      expectRefused(await put(target.id));
      const row = await t.db.kysely
        .selectFrom('users')
        .select('email')
        .where('id', '=', target.id)
        .executeTakeFirstOrThrow();
      expect(row.email).toBe(target.email);
    }
    // Granting Admin or Super-Admin to a member, removing Admin from an Admin, keeping it.
    expectRefused(await put(member.id, ['Vertreter', 'Admin']));
    expectRefused(await put(member.id, ['Super-Admin']));
    expectRefused(await put(users.admin.id, ['Vertreter']));
    expectRefused(await put(users.admin.id, ['Admin']));
    expect(await rolesOf(member.id)).toEqual(['Vertreter']);
    expect(await rolesOf(users.admin.id)).toEqual(['Admin']);
    // Deleting one, resending an administrator's invitation.
    expectRefused(
      await t.app.inject({ method: 'DELETE', url: `/api/v1/user/${users.admin.id}`, headers: bearer() }),
    );
    expectRefused(
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/user/${invitedAdmin.id}/invitation`,
        headers: bearer(),
      }),
    );
    expect(await rolesOf(users.admin.id)).toEqual(['Admin']);
    // The second-factor reset is out of any key's reach altogether.
    const reset = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/user/${member.id}/two-factor`,
      headers: bearer(),
      payload: { code: '123456' },
    });
    expect(reset.statusCode).toBe(403);
    expect(reset.json().message).toBe(API_KEY_MESSAGES.outOfScope);

    const entries = (await refusals()).slice(before);
    expect(entries.map((entry) => [JSON.parse(entry.details!).attempted, entry.object_id])).toEqual([
      ['user.updated', users.admin.id],
      ['user.updated', users.superAdmin.id],
      ['user.updated', member.id],
      ['user.updated', member.id],
      ['user.updated', users.admin.id],
      ['user.updated', users.admin.id],
      ['user.deleted', users.admin.id],
      ['user.invited', invitedAdmin.id],
    ]);
  });

  it('still does what its scope names for members', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: bearer(),
      payload: {
        title: 'Frau',
        firstname: 'Neu',
        lastname: 'Mitglied',
        email: 'neu-mitglied@example.org',
        roles: ['Vertreter'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().user.id as number;
    const [vertreter, aufsichtsrat] = await roleIds(t, ['Vertreter', 'Aufsichtsrat']);
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/user/${id}`,
      headers: bearer(),
      payload: {
        title: 'Frau',
        firstname: 'Neu',
        lastname: 'Mitglied',
        email: 'neu-mitglied@example.org',
        roles: [vertreter, aufsichtsrat],
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/v1/user/${id}`, headers: bearer() })).statusCode,
    ).toBe(204);
  });
});
