import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Committee, Membership, Term } from '@gremienportal/contracts/committees';
import { openDatabase, PRINCIPAL_CACHE_MS, type Db } from '../../src/db/database.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, sessionFor, type TestUser } from '../support/factories.ts';

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two instances on one database over midnight Europe/Berlin (decision 189): both run the membership
 * job (`memberships.run()`, every minute on every instance) at the same moment, with many
 * memberships starting and ending. Each start and end happens once: one audit entry, one mail
 * (none for the end of an Ersatzmitglied's part who serves on as Mitglied), the role given or taken
 * once. And a membership ended through one instance takes the role away for a request through the
 * other within the principal cache's second (decision 137; no Redis here to tell it sooner).
 *
 * PostgreSQL (TEST_DATABASE_URL): each instance has its own pool, the runs really overlap. SQLite
 * belongs to one instance (a second connection in the same process would wait on the first one's
 * write lock, blocking the event loop): the two apps share the connection, so their runs interleave
 * transaction by transaction; for the cache, the other instance reads through its own connection.
 */

/** The Amtsperiode and the day that ends at the test's midnight (Berlin, winter time: 23:00 UTC). */
const TERM = { start: '2026-07-01', end: '2030-06-30' };
const LAST_DAY = '2026-11-21';
const FIRST_DAY = '2026-11-22';
const BEFORE_MIDNIGHT = new Date('2026-11-21T22:59:00.000Z');
const MIDNIGHT = new Date('2026-11-21T23:00:00.000Z');
const PER_KIND = 12;

type Kind = 'ending' | 'starting' | 'movingUp' | 'staying' | 'later';
interface Seat {
  kind: Kind;
  user: TestUser;
  /** Its memberships, in the order made; `movingUp` has the ending one first. */
  ids: number[];
}

/** A second instance of `a`'s portal: the same database and test clock, its own app and mail sender. */
async function secondInstance(a: TestApp, ownConnection: boolean): Promise<TestApp> {
  const sqliteFile = join(a.dataDir, 'portal.sqlite');
  const db: Db = postgres
    ? openDatabase({ databaseUrl: a.config.DATABASE_URL, sqliteFile })
    : ownConnection
      ? openDatabase({ sqliteFile })
      : { ...a.db, close: async () => undefined };
  return buildTestApp({ db, clock: a.clock, env: { DATABASE_URL: a.config.DATABASE_URL ?? '' } });
}

describe(`Gremien at midnight on two instances (${postgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  let a: TestApp;
  let b: TestApp;
  /** The instance that answers the member after the end: B, or on SQLite one with its own connection. */
  let reader: TestApp;
  let admin: TestUser;
  let committee: Committee;
  let term: Term;

  beforeAll(async () => {
    a = await buildTestApp();
    b = await secondInstance(a, false);
    reader = postgres ? b : await secondInstance(a, true);
    admin = await createUser(a, { roles: ['Admin'] });
    const created = await a.app.inject({
      method: 'POST',
      url: '/api/v1/committees',
      headers: admin.headers,
      payload: { name: 'Finanzausschuss', kind: 'ausschuss' },
    });
    expect(created.statusCode, created.body).toBe(201);
    committee = created.json().data;
    const termRes = await a.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committee.id}/terms`,
      headers: admin.headers,
      payload: TERM,
    });
    expect(termRes.statusCode, termRes.body).toBe(201);
    term = termRes.json().data;
  });
  afterAll(async () => {
    if (reader && reader !== b) await reader.close();
    await b?.close();
    await a?.close();
  });

  /** A fresh admin session on `t` (the clock jumps past the idle limit of older ones). */
  const adminOn = async (t: TestApp) => ({ authorization: `Bearer ${await sessionFor(t, admin.id)}` });
  const join = async (t: TestApp, user: TestUser, body: object): Promise<Membership> => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committee.id}/members`,
      headers: await adminOn(t),
      payload: { term_id: term.id, user_id: user.id, function: 'mitglied', ...body },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const rolesOf = async (userId: number) =>
    (
      await a.db.kysely
        .selectFrom('user_roles')
        .select(['role_id', 'direct', 'via_committee'])
        .where('user_id', '=', userId)
        .execute()
    ).filter((row) => row.role_id === committee.role.id);

  it('applies each start and end once, with one mail each, while both instances run at midnight', async () => {
    // Made through both instances alike: who ends tonight, who starts tomorrow, an Ersatzmitglied
    // who moves up (ends as such tonight, is Mitglied from tomorrow), who stays, who starts later.
    const seats: Seat[] = [];
    const kinds: Kind[] = ['ending', 'starting', 'movingUp', 'staying', 'later'];
    for (let i = 0; i < PER_KIND * kinds.length; i += 1) {
      const kind = kinds[i % kinds.length]!;
      const via = i % 2 === 0 ? a : b;
      const user = await createUser(a, { lastname: `Mitglied ${i}` });
      const seat: Seat = { kind, user, ids: [] };
      const add = async (body: object) => seat.ids.push((await join(via, user, body)).id);
      if (kind === 'ending') await add({ until: LAST_DAY });
      if (kind === 'starting') await add({ from: FIRST_DAY });
      if (kind === 'movingUp') {
        await add({ function: 'ersatzmitglied', rank: i + 1, until: LAST_DAY });
        await add({ from: FIRST_DAY });
      }
      if (kind === 'staying') await add({});
      if (kind === 'later') await add({ from: '2026-12-01' });
      seats.push(seat);
    }
    const of = (kind: Kind) => seats.filter((seat) => seat.kind === kind);
    // Today's roles: the Mitglieder who serve today; an Ersatzmitglied does not see the papers.
    for (const seat of seats) {
      const serving = seat.kind === 'ending' || seat.kind === 'staying';
      expect(await rolesOf(seat.user.id), `${seat.kind} ${seat.user.id} vorher`).toEqual(
        serving ? [{ role_id: committee.role.id, direct: 0, via_committee: 1 }] : [],
      );
    }
    const known = new Set(
      (await a.db.kysely.selectFrom('outbox').select('id').execute()).map((row) => row.id),
    );
    const auditedBefore = await a.db.kysely
      .selectFrom('audit_log')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirst();

    // 23:59 in Berlin: nothing is due on either instance.
    a.clock.set(BEFORE_MIDNIGHT);
    expect(await Promise.all([a.app.memberships.run(), b.app.memberships.run()])).toEqual([0, 0]);

    // Midnight: both at once, and again. Each change is counted by the instance that made it.
    a.clock.set(MIDNIGHT);
    const first = (await Promise.all([a.app.memberships.run(), b.app.memberships.run()])) as number[];
    const again = (await Promise.all([b.app.memberships.run(), a.app.memberships.run()])) as number[];
    console.log(`Mitternacht auf zwei Instanzen: A ${first[0]}, B ${first[1]} Änderungen`);
    const expectedChanges = of('ending').length + of('starting').length + 2 * of('movingUp').length;
    expect(first[0]! + first[1]!, `Änderungen (A ${first[0]}, B ${first[1]})`).toBe(expectedChanges);
    expect(again).toEqual([0, 0]);

    // States, roles and audit entries: each transition once.
    const states = new Map(
      (await a.db.kysely.selectFrom('committee_memberships').select(['id', 'state']).execute()).map((row) => [
        row.id,
        row.state,
      ]),
    );
    const audits = await a.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'object_id'])
      .where('id', '>', auditedBefore?.id ?? 0)
      .where('action', 'in', ['membership.started', 'membership.ended'])
      .execute();
    const auditsOf = (id: number) => audits.filter((row) => row.object_id === id).map((row) => row.action);
    for (const seat of seats) {
      const what = `${seat.kind} (Konto ${seat.user.id})`;
      const expected: Record<Kind, { states: string[]; audits: string[][]; role: boolean }> = {
        ending: { states: ['ended'], audits: [['membership.ended']], role: false },
        starting: { states: ['active'], audits: [['membership.started']], role: true },
        movingUp: {
          states: ['ended', 'active'],
          audits: [['membership.ended'], ['membership.started']],
          role: true,
        },
        staying: { states: ['active'], audits: [[]], role: true },
        later: { states: ['pending'], audits: [[]], role: false },
      };
      const want = expected[seat.kind];
      expect(
        seat.ids.map((id) => states.get(id)),
        `${what}: Zustand`,
      ).toEqual(want.states);
      expect(seat.ids.map(auditsOf), `${what}: Protokoll`).toEqual(want.audits);
      expect(await rolesOf(seat.user.id), `${what}: Rolle`).toEqual(
        want.role ? [{ role_id: committee.role.id, direct: 0, via_committee: 1 }] : [],
      );
    }

    // One mail per start and per end; the Ersatzmitglied who moves up gets only the start.
    const mails = (
      await a.db.kysely.selectFrom('outbox').select(['id', 'to_address', 'subject']).execute()
    ).filter((mail) => !known.has(mail.id));
    const subjects = (email: string) =>
      mails.filter((mail) => mail.to_address === email).map((mail) => mail.subject);
    const name = `„${committee.name}“`;
    for (const seat of seats) {
      const expected = {
        ending: [`Ihre Mitgliedschaft im Gremium ${name} hat am 21.11.2026 geendet`],
        starting: [`Ihre Mitgliedschaft im Gremium ${name} beginnt am 22.11.2026`],
        movingUp: [`Ihre Mitgliedschaft im Gremium ${name} beginnt am 22.11.2026`],
        staying: [],
        later: [],
      }[seat.kind];
      expect(subjects(seat.user.email), `${seat.kind} ${seat.user.email}: Mails`).toEqual(expected);
    }
    expect(mails).toHaveLength(of('ending').length + of('starting').length + of('movingUp').length);
  });

  it('takes the role away for a request through the other instance within the principal cache’s second', async () => {
    // 23:30 in Berlin on the 22nd: a membership for this one day, entered through A.
    a.clock.set(new Date('2026-11-22T22:30:00.000Z'));
    const member = await createUser(a, { lastname: 'Eintagsmitglied' });
    const membership = await join(a, member, { from: FIRST_DAY, until: FIRST_DAY });
    expect(membership.active).toBe(true);
    const headers = { authorization: `Bearer ${await sessionFor(a, member.id)}` };
    const folderId = committee.folder!.id;
    const read = (url: string) => reader.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });

    // Through the other instance: the Gremium and, through its role, its folder. The principal is
    // cached there from this first request on, for PRINCIPAL_CACHE_MS at most.
    const cachedAt = performance.now();
    expect((await read(`/folders/${folderId}`)).statusCode).toBe(200);
    expect((await read(`/committees/${committee.id}`)).statusCode).toBe(200);

    // Midnight: only A runs; the membership ends there.
    a.clock.set(new Date('2026-11-22T23:00:00.000Z'));
    expect(await a.app.memberships.run()).toBe(1);
    expect(await rolesOf(member.id)).toEqual([]);

    // The Gremium itself asks for the membership on every request: gone at once.
    expect((await read(`/committees/${committee.id}`)).statusCode).toBe(404);
    // The role may still be the cached one, but only within the second since it was read.
    const soon = await read(`/folders/${folderId}`);
    const elapsed = performance.now() - cachedAt;
    if (soon.statusCode === 200) {
      expect(elapsed, 'Rolle noch da, aber länger als der Zwischenspeicher hält').toBeLessThan(
        PRINCIPAL_CACHE_MS,
      );
    } else {
      expect(soon.statusCode).toBe(404);
    }
    await pause(Math.max(0, PRINCIPAL_CACHE_MS + 50 - (performance.now() - cachedAt)));
    expect((await read(`/folders/${folderId}`)).statusCode, 'nach der Sekunde').toBe(404);
    const account = await read('/account');
    expect(account.statusCode).toBe(200);
    expect(account.json().data.roles as string[]).not.toContain(committee.role.name);
    expect((await read('/committees')).json().data).toEqual([]);
  });
});
