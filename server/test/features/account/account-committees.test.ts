import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_VISIBLE_TO_COMMITTEES_LABEL } from '@gremienportal/contracts/account';
import { formatAuditDetails } from '@gremienportal/contracts/audit-details';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, type TestUser } from '../../support/factories.ts';
import { committeeOf, insertMembership } from '../../support/memberships.fixtures.ts';

// Decision 189: the account shows the own committee memberships and lets the member show the
// e-mail address to fellow members.
describe('account: committees and the e-mail visibility', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const getAccount = async (user: Pick<TestUser, 'headers'>) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: user.headers });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const putAccount = (user: Pick<TestUser, 'headers'>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/account', headers: user.headers, payload });
  const storedVisibility = async (id: number) =>
    (
      await t.db.kysely
        .selectFrom('users')
        .select('email_visible_to_committees')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).email_visible_to_committees;
  const accountAudit = (id: number) =>
    t.db.kysely
      .selectFrom('audit_log')
      .select(['details', 'actor_id'])
      .where('action', '=', 'account.updated')
      .where('object_id', '=', id)
      .orderBy('id')
      .execute();

  it('answers the own memberships, active ones first, and the roles they give', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const other = await createUser(t, { roles: ['Vertreter'] });
    const ended = await insertMembership(t, {
      role: 'Aufsichtsrat',
      userId: user.id,
      term: { start: '2021-07-01', end: '2026-06-30' },
      givesRole: false,
    });
    const active = await insertMembership(t, {
      role: 'Aufsichtsrat',
      userId: user.id,
      function: 'ersatzmitglied',
      rank: 1,
    });
    await insertMembership(t, { role: 'Aufsichtsrat', userId: other.id });
    const committee = await committeeOf(t, 'Aufsichtsrat');

    const data = await getAccount(user);
    expect(data.memberships).toEqual([
      {
        id: active.id,
        committee,
        term_title: 'Amtsperiode 2026–2030',
        function: 'ersatzmitglied',
        rank: 1,
        from: '2026-07-01',
        until: '2030-06-30',
        active: true,
      },
      {
        id: ended.id,
        committee,
        term_title: 'Amtsperiode 2021–2026',
        function: 'mitglied',
        rank: null,
        from: '2021-07-01',
        until: '2026-06-30',
        active: false,
      },
    ]);
    // The account's roles are all the member holds, the committee's included.
    expect(data.roles).toEqual(['Aufsichtsrat', 'Vertreter']);
    expect(data.roles_string).toBe('Aufsichtsrat, Vertreter');
  });

  it('has no memberships and a hidden address by default', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const data = await getAccount(user);
    expect(data.memberships).toEqual([]);
    expect(data.email_visible_to_committees).toBe(false);
  });

  it('lets any member show the address to fellow members, audited, and hide it again', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const shown = await putAccount(user, { email_visible_to_committees: true });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().user.email_visible_to_committees).toBe(true);
    expect(await storedVisibility(user.id)).toBe(1);
    expect((await getAccount(user)).email_visible_to_committees).toBe(true);

    // The same value again changes nothing and records nothing.
    expect((await putAccount(user, { email_visible_to_committees: true })).statusCode).toBe(200);
    const hidden = await putAccount(user, { email_visible_to_committees: false });
    expect(hidden.json().user.email_visible_to_committees).toBe(false);
    expect(await storedVisibility(user.id)).toBe(0);

    const audit = await accountAudit(user.id);
    expect(audit.map((row) => ({ ...row, details: JSON.parse(row.details!) }))).toEqual([
      {
        actor_id: user.id,
        details: { changed: ['email_visible_to_committees'], email_visible_to_committees: true },
      },
      {
        actor_id: user.id,
        details: { changed: ['email_visible_to_committees'], email_visible_to_committees: false },
      },
    ]);
    expect(formatAuditDetails(JSON.parse(audit[0]!.details!))).toBe(
      'Geändert: E-Mail für Gremien sichtbar; E-Mail für Gremien sichtbar: ja',
    );
  });

  it('changes the visibility together with a password in one audited change', async () => {
    const user = await createUser(t, { roles: ['Aufsichtsrat'] });
    const res = await putAccount(user, {
      email_visible_to_committees: true,
      password: 'Neues-Kennwort-2026',
      password_confirmation: 'Neues-Kennwort-2026',
      current_password: user.password,
    });
    expect(res.statusCode).toBe(200);
    expect(await storedVisibility(user.id)).toBe(1);
    const audit = await accountAudit(user.id);
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.details!).changed).toEqual(['password', 'email_visible_to_committees']);
  });

  it('refuses a value that is no boolean with a German message and stores nothing', async () => {
    const user = await createUser(t, { roles: ['Vertreter'] });
    const res = await putAccount(user, { email_visible_to_committees: 'ja' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email_visible_to_committees).toEqual([
      `${EMAIL_VISIBLE_TO_COMMITTEES_LABEL}: bitte ja oder nein angeben.`,
    ]);
    expect(await storedVisibility(user.id)).toBe(0);
    expect(await accountAudit(user.id)).toHaveLength(0);
  });
});
