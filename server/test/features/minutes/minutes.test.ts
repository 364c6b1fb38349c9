import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Committee } from '@gremienportal/contracts/committees';
import {
  MINUTES_LIMITS,
  MINUTES_MESSAGES,
  saveMinutesBodySchema,
  type Minutes,
} from '@gremienportal/contracts/minutes';
import { AppError } from '../../../src/errors.ts';
import type { Actor } from '../../../src/plugins/auth.ts';
import type { Principal } from '../../../src/policies/principal.ts';
import { minutesService } from '../../../src/features/minutes/minutes.service.ts';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, type TestUser } from '../../support/factories.ts';
import { createMeeting, putAgenda } from '../../support/book.fixtures.ts';
import { createTotpUser, freshCode, type TotpUser } from '../../support/two-factor.fixtures.ts';

/**
 * The Niederschrift's draft and its versions (decision 193), through the service: the draft from
 * the meeting (header, attendance from the answers, a section per agenda item with its documents
 * and its resolutions verbatim), who may write and read it, one per meeting and committee, and
 * saves that never overwrite a newer one.
 */
describe('Niederschrift: draft and versions', () => {
  let t: TestApp;
  let users: Awaited<ReturnType<typeof createRoleUsers>>;
  let ar: Committee;
  let chair: TotpUser;
  let secretary: TestUser;
  let member: TestUser;
  let absent: TestUser;
  let eventId: number;
  let resolutionNumber: string;
  let minutes: Minutes;
  const names = new Map<number, [string, string]>();

  const actor = (user: TestUser, isAdmin = false): Actor => ({
    ip: '127.0.0.1',
    principal: {
      id: user.id,
      sessionId: null,
      email: user.email,
      title: 'Frau',
      firstname: names.get(user.id)?.[0] ?? 'Test',
      lastname: names.get(user.id)?.[1] ?? 'Person',
      roles: isAdmin ? ['Admin'] : ['Aufsichtsrat'],
      roleIds: isAdmin ? [] : [ar.role.id],
      isAdmin,
      isSuperAdmin: false,
      twoFactorEnabled: true,
      needsTwoFactorSetup: false,
      emailVisibleToCommittees: false,
      hasCommitteeMemberships: true,
      readState: { since: '2026-01-01T00:00:00.000Z', version: 0 },
    } satisfies Principal,
  });
  const svc = () => minutesService(t.app.context);
  const call = async (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: user.headers,
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const refused = async (promise: Promise<unknown>) => {
    const error = (await promise.then(
      () => null,
      (e: unknown) => e,
    )) as AppError | null;
    expect(error).toBeInstanceOf(AppError);
    return error!;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    users = await createRoleUsers(t);
    ar = ((await call(users.admin, 'GET', '/committees')).data as Committee[]).find(
      (c) => c.kind === 'aufsichtsrat',
    )!;
    const term = (
      await call(users.admin, 'POST', `/committees/${ar.id}/terms`, {
        start: '2026-07-01',
        end: '2030-06-30',
      })
    ).data;
    chair = await createTotpUser(t);
    secretary = await createUser(t);
    member = await createUser(t);
    absent = await createUser(t);
    const people: [TestUser, string, string, string][] = [
      [chair, 'vorsitz', 'Łucja', 'Wąsowska'],
      [secretary, 'schriftfuehrung', 'Şahin', 'Öztürk'],
      [member, 'mitglied', 'Bernd', 'Zander'],
      [absent, 'mitglied', 'Carla', 'Czerny'],
    ];
    for (const [user, fn, firstname, lastname] of people) {
      await t.db.kysely.updateTable('users').set({ firstname, lastname }).where('id', '=', user.id).execute();
      names.set(user.id, [firstname, lastname]);
      await call(users.admin, 'POST', `/committees/${ar.id}/members`, {
        term_id: term.id,
        user_id: user.id,
        function: fn,
      });
    }
    eventId = await createMeeting(t, users.admin, {
      roles: ['Aufsichtsrat'],
      start: '2026-12-10T18:00',
      end: '2026-12-10T20:30',
      location: 'Sitzungssaal',
    });
    await putAgenda(t, users.admin, eventId, [{ title: 'Begrüßung' }, { title: 'Jahresabschluss 2026' }]);
    const items = (await call(users.admin, 'GET', `/events/${eventId}/agenda`)).data as {
      id: number;
      title: string;
    }[];
    const item = items.find((i) => i.title === 'Jahresabschluss 2026')!;
    for (const [user, status] of [
      [chair, 'zugesagt'],
      [secretary, 'zugesagt'],
      [member, 'abgesagt'],
    ] as const) {
      await call(user, 'PUT', `/events/${eventId}/attendance`, { status });
    }
    const motion = (
      await call(secretary, 'POST', '/motions', {
        committee_id: ar.id,
        agenda_item_id: item.id,
        title: 'Feststellung des Jahresabschlusses',
        text: 'Der Aufsichtsrat billigt den Jahresabschluss 2026.',
        mode: 'namentlich',
      })
    ).data;
    await call(chair, 'POST', `/motions/${motion.id}/open`, { procedure: 'sitzung' });
    for (const voter of [chair, secretary, member])
      await call(voter, 'POST', `/motions/${motion.id}/votes`, { choice: 'ja' });
    await call(chair, 'POST', `/motions/${motion.id}/close`);
    resolutionNumber = (
      await call(chair, 'POST', `/motions/${motion.id}/establish`, { code: await freshCode(t, chair.secret) })
    ).data.number;
  });
  afterAll(() => t?.close());

  it('drafts from the meeting: header, attendance from the answers, items with their resolutions verbatim', async () => {
    await expect(refused(svc().createDraft(actor(member), eventId))).resolves.toMatchObject({
      code: 'forbidden',
      message: MINUTES_MESSAGES.onlyWriters,
    });
    minutes = await svc().createDraft(actor(secretary), eventId);
    expect(minutes).toMatchObject({
      state: 'entwurf',
      version: 1,
      kind: 'niederschrift',
      committee: { id: ar.id },
    });
    expect(minutes.content.header).toEqual({
      form: 'praesenz',
      date: '2026-12-10',
      start: '18:00',
      end: '20:30',
      place: 'Sitzungssaal',
      chair: 'Łucja Wąsowska',
      secretary: 'Şahin Öztürk',
    });
    expect(minutes.content.attendance).toEqual({
      present: expect.arrayContaining(['Łucja Wąsowska', 'Şahin Öztürk']),
      excused: ['Bernd Zander'],
      absent: ['Carla Czerny'],
      guests: [],
    });
    expect(minutes.content.attendance.present).toHaveLength(2);
    expect(minutes.content.sections.map((s) => [s.number, s.title])).toEqual([
      ['1', 'Begrüßung'],
      ['2', 'Jahresabschluss 2026'],
    ]);
    const quoted = minutes.content.sections[1]!.resolutions;
    expect(quoted).toHaveLength(1);
    expect(quoted[0]).toMatchObject({
      number: resolutionNumber,
      text: 'Der Aufsichtsrat billigt den Jahresabschluss 2026.',
      counts: 'Ja 3 · Nein 0 · Enthaltung 0',
    });
    expect(quoted[0]!.names).toContain('Łucja Wąsowska: Ja');
    expect(quoted[0]!.result).toMatch(/^Angenommen/);
    const again = await refused(svc().createDraft(actor(chair), eventId));
    expect([again.code, again.message]).toEqual(['conflict', MINUTES_MESSAGES.exists]);
  });

  it('lets the writers and signers read the draft, hides it from other members and outsiders (404)', async () => {
    expect((await svc().get(actor(chair).principal, minutes.id)).id).toBe(minutes.id);
    expect((await svc().get(actor(users.admin, true).principal, minutes.id)).id).toBe(minutes.id);
    for (const who of [member, users.vertreter]) {
      const error = await refused(svc().get(actor(who).principal, minutes.id));
      expect([error.code, error.message]).toEqual(['not_found', MINUTES_MESSAGES.notFound]);
    }
    expect((await refused(svc().get(actor(chair).principal, 2_147_483_000))).code).toBe('not_found');
  });

  it('saves versions, refuses a stale one without losing the newer, and keeps the quoted resolutions', async () => {
    const base = {
      header: { ...minutes.content.header, form: 'hybrid' as const },
      attendance: { ...minutes.content.attendance, guests: ['Dr. Gast (Wirtschaftsprüfer)'] },
    };
    const first = await svc().save(actor(secretary), minutes.id, {
      ...base,
      version: 1,
      bodies: { [minutes.content.sections[1]!.key]: 'Der Prüfer **erläutert** den Bericht.' },
    });
    expect(first.version).toBe(2);
    expect(first.saved_by).toBe('Şahin Öztürk');
    expect(first.content.header.form).toBe('hybrid');
    expect(first.content.sections[1]!.body).toBe('Der Prüfer **erläutert** den Bericht.');
    expect(first.content.sections[1]!.resolutions).toEqual(minutes.content.sections[1]!.resolutions);

    const stale = await refused(
      svc().save(actor(chair), minutes.id, {
        ...base,
        version: 1,
        bodies: { [minutes.content.sections[0]!.key]: 'Alt' },
      }),
    );
    expect([stale.code, stale.message, stale.reason]).toEqual(['conflict', MINUTES_MESSAGES.stale, 'stale']);
    expect((await svc().get(actor(chair).principal, minutes.id)).content.sections[1]!.body).toBe(
      'Der Prüfer **erläutert** den Bericht.',
    );
    const unknown = await refused(
      svc().save(actor(chair), minutes.id, { ...base, version: 2, bodies: { 'item-999999': 'x' } }),
    );
    expect([unknown.code, unknown.message]).toEqual(['validation', MINUTES_MESSAGES.unknownSection]);
    const memberSave = await refused(
      svc().save(actor(member), minutes.id, { ...base, version: 2, bodies: {} }),
    );
    expect(memberSave.code).toBe('not_found');

    // Two saves on the same version at once: one wins, the other is told.
    const results = await Promise.allSettled([
      svc().save(actor(chair), minutes.id, {
        ...base,
        version: 2,
        bodies: { [minutes.content.sections[0]!.key]: 'A' },
      }),
      svc().save(actor(secretary), minutes.id, {
        ...base,
        version: 2,
        bodies: { [minutes.content.sections[0]!.key]: 'B' },
      }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.reason).toBe(
      'stale',
    );
    const versions = await t.db.kysely
      .selectFrom('minutes_versions')
      .select('version')
      .where('minutes_id', '=', minutes.id)
      .execute();
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2, 3]);
  });

  it('limits the text and says so in German', () => {
    const header = minutes.content.header;
    const attendance = minutes.content.attendance;
    const long = saveMinutesBodySchema.safeParse({
      version: 1,
      header,
      attendance,
      bodies: { a: 'x'.repeat(MINUTES_LIMITS.body + 1) },
    });
    expect(long.success).toBe(false);
    const many = Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [`s${i}`, 'x'.repeat(MINUTES_LIMITS.body)]),
    );
    const total = saveMinutesBodySchema.safeParse({ version: 1, header, attendance, bodies: many });
    expect(total.success).toBe(false);
    expect(JSON.stringify(total.error?.issues)).toContain('Die Niederschrift ist zu lang');
  });
});
