import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES_REQUIRED_MESSAGE, type User, type UserDetail } from '@gremienportal/contracts/users';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, roleIds, sessionFor, type TestUser } from '../../support/factories.ts';
import { committeeOf, insertMembership, roleRowsOf } from '../../support/memberships.fixtures.ts';

// Decision 189: `user_roles` holds the effective roles; the user API shows and edits the direct ones
// and lists all with their source.
describe('user administration: direct roles and roles from committees', () => {
  let t: TestApp;
  let admin: TestUser;
  let aufsichtsrat: number;
  let vertreter: number;
  let committee: { id: number; name: string };
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await createUser(t, { roles: ['Admin'] });
    const ids = await roleIds(t, ['Aufsichtsrat', 'Vertreter']);
    [aufsichtsrat, vertreter] = [ids[0]!, ids[1]!];
    committee = await committeeOf(t, 'Aufsichtsrat');
  });
  afterAll(() => t.close());

  const getUser = async (id: number) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/user/${id}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    return res.json().data as UserDetail;
  };
  const putUser = (id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: `/api/v1/user/${id}`, headers: admin.headers, payload });
  const formOf = (user: User) => ({
    title: user.title,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    roles: user.roles,
  });
  const roleAudits = (id: number) =>
    t.db.kysely
      .selectFrom('audit_log')
      .select('details')
      .where('object_type', '=', 'user')
      .where('object_id', '=', id)
      .where('action', '=', 'user.roles_changed')
      .execute();

  /** Vertreter given directly, Aufsichtsrat through the committee. */
  async function memberWithBoth() {
    const user = await createUser(t, { roles: ['Vertreter'], lastname: 'Beides' });
    await insertMembership(t, { role: 'Aufsichtsrat', userId: user.id });
    return user;
  }

  it('answers the direct roles as roles and every role with its source as effective_roles', async () => {
    const user = await memberWithBoth();
    const data = await getUser(user.id);
    expect(data.roles).toEqual(['Vertreter']);
    // The list shows every role the person holds; the form edits `roles` (direct).
    expect(data.roles_string).toBe('Aufsichtsrat, Vertreter');
    expect(data.effective_roles).toEqual([
      { id: aufsichtsrat, name: 'Aufsichtsrat', sources: ['committee'], committee },
      { id: vertreter, name: 'Vertreter', sources: ['direct'], committee: null },
    ]);

    const list = await t.app.inject({ method: 'GET', url: '/api/v1/user', headers: admin.headers });
    const listed = (list.json().data as User[]).find((entry) => entry.id === user.id)!;
    expect(listed.roles).toEqual(['Vertreter']);
    expect(listed.effective_roles.map((role) => [role.name, role.sources])).toEqual([
      ['Aufsichtsrat', ['committee']],
      ['Vertreter', ['direct']],
    ]);
    expect(listed).not.toHaveProperty('memberships');
  });

  it('names both sources for a role given directly and through the committee', async () => {
    const user = await createUser(t, { roles: ['Aufsichtsrat'] });
    await insertMembership(t, { role: 'Aufsichtsrat', userId: user.id });
    expect((await getUser(user.id)).effective_roles).toEqual([
      { id: aufsichtsrat, name: 'Aufsichtsrat', sources: ['direct', 'committee'], committee },
    ]);
  });

  it('sends the form back unchanged without turning the committee role into a direct one', async () => {
    const user = await memberWithBoth();
    const res = await putUser(user.id, formOf(await getUser(user.id)));
    expect(res.statusCode).toBe(200);
    expect(res.json().user.roles).toEqual(['Vertreter']);
    expect(await roleRowsOf(t, user.id)).toEqual({
      Aufsichtsrat: { direct: 0, via_committee: 1 },
      Vertreter: { direct: 1, via_committee: 0 },
    });
    expect(await roleAudits(user.id)).toHaveLength(0);
  });

  it('removing a direct role keeps the row the committee gives, and a direct-only row goes', async () => {
    const user = await createUser(t, { roles: ['Aufsichtsrat', 'Vertreter'] });
    await insertMembership(t, { role: 'Aufsichtsrat', userId: user.id });
    const form = formOf(await getUser(user.id));
    const res = await putUser(user.id, { ...form, roles: [] });
    expect(res.statusCode).toBe(200);
    expect(await roleRowsOf(t, user.id)).toEqual({ Aufsichtsrat: { direct: 0, via_committee: 1 } });
    const data = await getUser(user.id);
    expect(data.roles).toEqual([]);
    expect(data.effective_roles).toEqual([
      { id: aufsichtsrat, name: 'Aufsichtsrat', sources: ['committee'], committee },
    ]);
    expect((await roleAudits(user.id)).map((row) => JSON.parse(row.details!))).toEqual([
      { old_roles: ['Aufsichtsrat', 'Vertreter'], new_roles: [] },
    ]);
    // The role from the committee still decides what the member sees.
    const account = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: user.headers });
    expect(account.json().data.roles).toEqual(['Aufsichtsrat']);
  });

  it('granting directly a role the committee gives marks the same row direct', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    await insertMembership(t, { role: 'Aufsichtsrat', userId: user.id });
    const res = await putUser(user.id, {
      ...formOf(await getUser(user.id)),
      roles: ['Aufsichtsrat', 'Vertreter'],
    });
    expect(res.statusCode).toBe(200);
    expect(await roleRowsOf(t, user.id)).toEqual({
      Aufsichtsrat: { direct: 1, via_committee: 1 },
      Vertreter: { direct: 1, via_committee: 0 },
    });
    expect(res.json().user.effective_roles[0].sources).toEqual(['direct', 'committee']);
  });

  it('refuses an empty direct role list for a user without a committee role, on update and create', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const form = formOf(await getUser(user.id));
    const emptied = await putUser(user.id, { ...form, roles: [] });
    expect(emptied.statusCode).toBe(422);
    expect(emptied.json().errors).toEqual({ roles: [ROLES_REQUIRED_MESSAGE] });
    expect(await roleRowsOf(t, user.id)).toEqual({ Vertreter: { direct: 1, via_committee: 0 } });

    // A membership that no longer gives its role does not count.
    const former = await createUser(t, { roles: ['Vertreter'] });
    await insertMembership(t, { role: 'Aufsichtsrat', userId: former.id, givesRole: false });
    expect((await putUser(former.id, { ...formOf(await getUser(former.id)), roles: [] })).statusCode).toBe(
      422,
    );

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      headers: admin.headers,
      payload: { ...form, email: 'ohne-rolle@example.org', roles: [] },
    });
    expect(created.statusCode).toBe(422);
    expect(created.json().errors.roles).toEqual([ROLES_REQUIRED_MESSAGE]);
  });

  it('lists the memberships of one user, active first, then the newest start', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const past = await insertMembership(t, {
      role: 'Aufsichtsrat',
      userId: user.id,
      term: { start: '2018-07-01', end: '2022-06-30' },
      function: 'ersatzmitglied',
      rank: 2,
      givesRole: false,
    });
    const future = await insertMembership(t, {
      role: 'Vertreter',
      userId: user.id,
      term: { start: '2027-01-01', end: '2030-12-31' },
      givesRole: false,
    });
    // The test clock stands at 2026-11-21.
    const current = await insertMembership(t, { role: 'Aufsichtsrat', userId: user.id, function: 'vorsitz' });
    const vertreterversammlung = await committeeOf(t, 'Vertreter');
    const data = await getUser(user.id);
    expect(data.memberships).toEqual([
      {
        id: current.id,
        committee,
        term_title: 'Amtsperiode 2026–2030',
        function: 'vorsitz',
        rank: null,
        from: '2026-07-01',
        until: '2030-06-30',
        active: true,
      },
      {
        id: future.id,
        committee: vertreterversammlung,
        term_title: 'Amtsperiode 2027–2030',
        function: 'mitglied',
        rank: null,
        from: '2027-01-01',
        until: '2030-12-31',
        active: false,
      },
      {
        id: past.id,
        committee,
        term_title: 'Amtsperiode 2018–2022',
        function: 'ersatzmitglied',
        rank: 2,
        from: '2018-07-01',
        until: '2022-06-30',
        active: false,
      },
    ]);
    // Another user's memberships are not among them.
    expect((await getUser(admin.id)).memberships).toEqual([]);
  });

  it('counts the day in Europe/Berlin: a membership ending today is over once midnight there has been applied', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    await insertMembership(t, {
      role: 'Aufsichtsrat',
      userId: user.id,
      from: '2026-07-01',
      until: '2026-11-21',
    });
    const saved = t.clock.now();
    // A session started at each moment, so no idle timeout stands in the way.
    const membershipsAt = async (instant: string) => {
      t.clock.set(new Date(instant));
      await t.app.memberships.run();
      const token = await sessionFor(t, admin.id);
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/user/${user.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      return (res.json().data as UserDetail).memberships;
    };
    try {
      expect((await membershipsAt('2026-11-21T22:30:00.000Z'))[0]!.active).toBe(true); // 23:30 in Berlin
      expect((await membershipsAt('2026-11-21T23:30:00.000Z'))[0]!.active).toBe(false); // 00:30 on the 22nd
    } finally {
      t.clock.set(saved);
    }
  });
});
