import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMITTEE_MESSAGES, type Committee, type Membership } from '@gremienportal/contracts/committees';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, sessionFor, type TestUser } from '../../support/factories.ts';

/**
 * Gremien, Amtsperioden, Mitgliedschaften through the API (decision 189): the seeded committees,
 * a term with its folders, roles that follow memberships at once and at midnight (once), the
 * directory's visibility, the rules' refusals and Nachrücken.
 */
describe('committees, terms and memberships', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let aufsichtsrat: Committee;
  let termId: number;
  let chair: TestUser;
  let member: TestUser;
  let substitute: TestUser;

  /** A fresh session: the test clock jumps past the idle limit of the earlier ones. */
  const fresh = async (user: TestUser): Promise<TestUser> => {
    const token = await sessionFor(t, user.id);
    return { ...user, token, headers: { authorization: `Bearer ${token}` } };
  };
  const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: user.headers, ...(payload ? { payload } : {}) });
  const rolesOf = async (id: number) =>
    (
      await t.db.kysely
        .selectFrom('user_roles')
        .innerJoin('roles', 'roles.id', 'user_roles.role_id')
        .select(['roles.name', 'user_roles.direct', 'user_roles.via_committee'])
        .where('user_roles.user_id', '=', id)
        .execute()
    ).map((row) => `${row.name}:${row.direct}${row.via_committee}`);
  const addMember = async (user: TestUser, body: object) => {
    const res = await call(users.admin, 'POST', `/committees/${aufsichtsrat.id}/members`, {
      term_id: termId,
      user_id: user.id,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Membership;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    chair = await createUser(t, { firstname: 'Łucja', lastname: 'Wiśniewska' });
    member = await createUser(t, { firstname: 'Emre', lastname: 'Şahin', title: 'Herr' });
    substitute = await createUser(t, { firstname: 'Anna', lastname: 'Ersatz' });
  });
  afterAll(() => t?.close());

  it('starts with the committees of the two committee roles', async () => {
    const res = await call(users.admin, 'GET', '/committees');
    expect(res.statusCode).toBe(200);
    const list = res.json().data as Committee[];
    expect(list.map((c) => [c.name, c.kind, c.role.name, c.folder?.breadcrumb])).toEqual([
      ['Aufsichtsrat', 'aufsichtsrat', 'Aufsichtsrat', '/Aufsichtsrat'],
      ['Vertreterversammlung', 'vertreterversammlung', 'Vertreter', '/Mitgliedervertreter'],
    ]);
    aufsichtsrat = list[0]!;
    expect(aufsichtsrat.rules.majority).toBe('simple');
  });

  it('creates a term with its folder and a subfolder per year, and refuses an overlapping one', async () => {
    const res = await call(users.admin, 'POST', `/committees/${aufsichtsrat.id}/terms`, {
      start: '2026-07-01',
      end: '2030-06-30',
    });
    expect(res.statusCode, res.body).toBe(201);
    termId = res.json().data.id;
    expect(res.json().data.title).toBe('Amtsperiode 2026–2030');
    const folders = await t.db.kysely
      .selectFrom('folders')
      .select('breadcrumb')
      .orderBy('breadcrumb')
      .execute();
    expect(folders.map((f) => f.breadcrumb)).toEqual(
      expect.arrayContaining([
        '/Aufsichtsrat/Amtsperiode 2026–2030',
        '/Aufsichtsrat/Amtsperiode 2026–2030/2026',
        '/Aufsichtsrat/Amtsperiode 2026–2030/2030',
      ]),
    );
    const overlap = await call(users.admin, 'POST', `/committees/${aufsichtsrat.id}/terms`, {
      start: '2030-01-01',
      end: '2034-06-30',
    });
    expect(overlap.statusCode).toBe(422);
    expect(overlap.json().message).toBe(COMMITTEE_MESSAGES.termOverlap);
    const members = await call(users.vertreter, 'POST', `/committees/${aufsichtsrat.id}/terms`, {
      start: '2040-01-01',
      end: '2044-06-30',
    });
    expect(members.statusCode).toBe(403);
  });

  it('records a term when "Amtsperiode erstellen" runs in a committee\'s folder, not elsewhere', async () => {
    const vv = (await call(users.admin, 'GET', '/committees')).json().data[1] as Committee;
    const res = await call(users.admin, 'POST', '/period', {
      folder_id: vv.folder!.id,
      start: 2027,
      end: 2031,
    });
    expect(res.statusCode, res.body).toBe(201);
    const terms = (await call(users.admin, 'GET', `/committees/${vv.id}/terms`)).json().data;
    expect(terms).toMatchObject([
      {
        start: '2027-01-01',
        end: '2031-12-31',
        title: 'Amtsperiode 2027–2031',
        folder_id: res.json().folder.id,
      },
    ]);
    // Again: the folders are reused and no second term appears.
    expect(
      (await call(users.admin, 'POST', '/period', { folder_id: vv.folder!.id, start: 2027, end: 2031 }))
        .statusCode,
    ).toBe(201);
    expect((await call(users.admin, 'GET', `/committees/${vv.id}/terms`)).json().data).toHaveLength(1);
    // In a folder of no committee only the folders are made.
    const before = await t.db.kysely.selectFrom('committee_terms').select('id').execute();
    expect(
      (await call(users.admin, 'POST', '/period', { folder_id: 4, start: 2027, end: 2031 })).statusCode,
    ).toBe(201);
    expect(await t.db.kysely.selectFrom('committee_terms').select('id').execute()).toEqual(before);
  });

  it('gives the role at once, with one mail, and shows the committee only to its members', async () => {
    const chairship = await addMember(chair, { function: 'vorsitz' });
    expect(chairship.active).toBe(true);
    expect(await rolesOf(chair.id)).toEqual(['Aufsichtsrat:01']);
    const mails = await t.flushMail();
    const started = mails.filter((mail) => mail.to === chair.email);
    expect(started).toHaveLength(1);
    expect(started[0]!.subject).toBe(
      'Ihre Mitgliedschaft im Gremium „Aufsichtsrat“ hat am 01.07.2026 begonnen',
    );

    const own = await call(chair, 'GET', '/committees');
    expect((own.json().data as Committee[]).map((c) => c.name)).toEqual(['Aufsichtsrat']);
    expect(own.json().data[0].member_count).toBe(1);
    for (const url of [`/committees/${aufsichtsrat.id}`, `/committees/${aufsichtsrat.id}/members`]) {
      expect((await call(users.vertreter, 'GET', url)).statusCode).toBe(404);
      expect((await call(chair, 'GET', url)).statusCode).toBe(200);
    }
    expect((await call(users.vertreter, 'GET', '/committees')).json().data).toEqual([]);
  });

  it('refuses a second Vorsitz, dates outside the term and an end before the start', async () => {
    const cases: [object, string][] = [
      [{ function: 'vorsitz' }, COMMITTEE_MESSAGES.twoChairs],
      [{ function: 'mitglied', from: '2026-01-01' }, COMMITTEE_MESSAGES.outsideTerm],
      [{ function: 'mitglied', from: '2027-01-01', until: '2026-12-31' }, COMMITTEE_MESSAGES.untilBeforeFrom],
      [{ function: 'ersatzmitglied' }, COMMITTEE_MESSAGES.rankRequired],
      [{ function: 'mitglied', rank: 2 }, COMMITTEE_MESSAGES.rankOnlySubstitutes],
    ];
    for (const [body, message] of cases) {
      const res = await call(users.admin, 'POST', `/committees/${aufsichtsrat.id}/members`, {
        term_id: termId,
        user_id: member.id,
        ...body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().message).toBe(message);
    }
    const twice = await call(users.admin, 'POST', `/committees/${aufsichtsrat.id}/members`, {
      term_id: termId,
      user_id: chair.id,
      function: 'mitglied',
    });
    expect(twice.json().message).toBe(COMMITTEE_MESSAGES.alreadyMember);
  });

  it('shows an e-mail address to fellow members only when its owner allowed it', async () => {
    await addMember(member, { function: 'mitglied' });
    const emailOf = async (viewer: TestUser, id: number) =>
      (
        (await call(viewer, 'GET', `/committees/${aufsichtsrat.id}/members`)).json().data as Membership[]
      ).find((m) => m.user.id === id)?.user.email;
    expect(await emailOf(member, chair.id)).toBeUndefined();
    expect(await emailOf(users.admin, chair.id)).toBe(chair.email);
    expect(await emailOf(chair, chair.id)).toBe(chair.email);
    await t.db.kysely
      .updateTable('users')
      .set({ email_visible_to_committees: 1 })
      .where('id', '=', chair.id)
      .execute();
    expect(await emailOf(member, chair.id)).toBe(chair.email);
  });

  it('ends a membership at midnight Europe/Berlin once, and lets the first Ersatzmitglied move up', async () => {
    const substituteship = await addMember(substitute, { function: 'ersatzmitglied', rank: 1 });
    expect(await rolesOf(substitute.id)).toEqual([]);
    const list = (await call(users.admin, 'GET', `/committees/${aufsichtsrat.id}/members`)).json()
      .data as Membership[];
    const membership = list.find((m) => m.user.id === member.id)!;
    const resign = await call(users.admin, 'PUT', `/memberships/${membership.id}`, {
      function: 'mitglied',
      from: membership.from,
      until: '2026-11-21',
      reason: 'ruecktritt',
    });
    expect(resign.statusCode, resign.body).toBe(200);
    expect(resign.json().data.proposed_successor).toEqual({
      membership_id: substituteship.id,
      name: 'Anna Ersatz',
    });
    const moved = await call(users.admin, 'POST', `/memberships/${membership.id}/successor`);
    expect(moved.statusCode, moved.body).toBe(201);
    expect(moved.json().data).toMatchObject({ function: 'mitglied', from: '2026-11-22', active: false });
    const sentBefore = (await t.flushMail()).length;

    // 23:59 in Berlin: nothing yet; 00:00 (23:00 UTC in winter): the end and the start, once each.
    t.clock.set(new Date('2026-11-21T22:59:00.000Z'));
    await t.app.memberships.run();
    expect(await rolesOf(member.id)).toEqual(['Aufsichtsrat:01']);
    t.clock.set(new Date('2026-11-21T23:00:00.000Z'));
    await Promise.all([t.app.memberships.run(), t.app.memberships.run()]);
    await t.app.memberships.run();
    expect(await rolesOf(member.id)).toEqual([]);
    expect(await rolesOf(substitute.id)).toEqual(['Aufsichtsrat:01']);
    const mails = (await t.flushMail()).slice(sentBefore);
    expect(mails.filter((mail) => mail.to === member.email).map((mail) => mail.subject)).toEqual([
      'Ihre Mitgliedschaft im Gremium „Aufsichtsrat“ hat am 21.11.2026 geendet',
    ]);
    expect(mails.filter((mail) => mail.to === substitute.email).map((mail) => mail.subject)).toEqual([
      'Ihre Mitgliedschaft im Gremium „Aufsichtsrat“ beginnt am 22.11.2026',
    ]);
    users.admin = await fresh(users.admin);
    const again = await call(users.admin, 'POST', `/memberships/${membership.id}/successor`);
    expect(again.json().message).toBe(COMMITTEE_MESSAGES.alreadySucceeded);
  });

  it('keeps a directly granted role when the membership that also gave it ends', async () => {
    users.admin = await fresh(users.admin);
    const both = await createUser(t, { roles: ['Aufsichtsrat'] });
    const m = await addMember(both, { function: 'mitglied', from: '2026-11-22', until: '2026-11-22' });
    expect(await rolesOf(both.id)).toEqual(['Aufsichtsrat:11']);
    t.clock.set(new Date('2026-11-22T23:00:00.000Z'));
    await t.app.memberships.run();
    expect(await rolesOf(both.id)).toEqual(['Aufsichtsrat:10']);
    users.admin = await fresh(users.admin);
    expect((await call(users.admin, 'DELETE', `/memberships/${m.id}`)).statusCode).toBe(200);
  });

  it('ends the memberships of a deleted account today and keeps the name in the history', async () => {
    users.admin = await fresh(users.admin);
    expect((await call(users.admin, 'DELETE', `/user/${chair.id}`)).statusCode).toBe(204);
    const list = (await call(users.admin, 'GET', `/committees/${aufsichtsrat.id}/members`)).json()
      .data as Membership[];
    const former = list.find((m) => m.function === 'vorsitz')!;
    expect(former).toMatchObject({ until: '2026-11-23', reason: 'sonstiges', active: false });
    expect(former.user).toMatchObject({ id: null, firstname: 'Łucja Wiśniewska' });
  });

  it('archives the term the day after it ends, once', async () => {
    t.clock.set(new Date('2030-06-30T22:30:00.000Z'));
    users.admin = await fresh(users.admin);
    users.superAdmin = await fresh(users.superAdmin);
    await t.app.memberships.run();
    await t.app.memberships.run();
    const terms = (await call(users.admin, 'GET', `/committees/${aufsichtsrat.id}/terms`)).json().data;
    expect(terms[0]).toMatchObject({ id: termId, archived: true, reopened: false });
    const entries = await t.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'term.archived')
      .execute();
    expect(entries).toHaveLength(1);
    const reopen = await call(users.admin, 'PUT', `/terms/${termId}`, {
      start: '2026-07-01',
      end: '2030-06-30',
      archived: false,
    });
    expect(reopen.statusCode).toBe(403);
    const bySuper = await call(users.superAdmin, 'PUT', `/terms/${termId}`, {
      start: '2026-07-01',
      end: '2030-06-30',
      archived: false,
    });
    expect(bySuper.json().data).toMatchObject({ archived: true, reopened: true });
  });
});
