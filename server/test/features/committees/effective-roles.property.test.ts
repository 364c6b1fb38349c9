import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_FUNCTIONS, type MemberFunction } from '@gremienportal/contracts/committees';
import type { TreeNode } from '@gremienportal/contracts/files';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createRoleUsers, createUser, sessionFor, type TestUser } from '../../support/factories.ts';
import { uploadFile } from '../../support/files.fixtures.ts';

const RUNS = Number(process.env.EFFECTIVE_ROLE_RUNS ?? 12);
const TERM = { start: '2026-07-01', end: '2030-06-30' };
const DAY = 86_400_000;
const dayOf = (offset: number) =>
  new Date(Date.parse(`${TERM.start}T00:00:00Z`) + offset * DAY).toISOString().slice(0, 10);
const TERM_DAYS = (Date.parse(`${TERM.end}T00:00:00Z`) - Date.parse(`${TERM.start}T00:00:00Z`)) / DAY;

/** Noon in Berlin of a day: the clock the run looks at. */
const noonInBerlin = (day: string) => new Date(`${day}T11:00:00.000Z`);

const membership = fc
  .record({
    person: fc.integer({ min: 0, max: 2 }),
    function: fc.constantFrom<MemberFunction>(...MEMBER_FUNCTIONS),
    start: fc.integer({ min: 0, max: TERM_DAYS }),
    length: fc.integer({ min: 0, max: TERM_DAYS }),
  })
  .map((m) => ({ ...m, from: dayOf(m.start), until: dayOf(Math.min(TERM_DAYS, m.start + m.length)) }));

const world = fc.record({
  direct: fc.array(fc.subarray(['Aufsichtsrat', 'Vertreter'] as const), { minLength: 3, maxLength: 3 }),
  memberships: fc.array(membership, { maxLength: 5 }),
  today: fc.integer({ min: -30, max: TERM_DAYS + 30 }).map(dayOf),
  substitutesSee: fc.boolean(),
});

/**
 * Effective roles are the direct ones and those of the memberships active on the day (decision
 * 189), and every read of the Aufsichtsrat's papers follows them: the tree, the folder's listing,
 * the search and the download, for random memberships, direct roles and days.
 */
describe('effective roles follow direct roles and active memberships', () => {
  let t: TestApp;
  let admin: TestUser;
  let committeeId: number;
  let termId: number;
  let paper: { id: number; external: string; title: string };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = (await createRoleUsers(t)).admin;
    committeeId = (
      await t.db.kysely
        .selectFrom('committees')
        .select('id')
        .where('name', '=', 'Aufsichtsrat')
        .executeTakeFirstOrThrow()
    ).id;
    t.clock.set(new Date('2026-06-01T10:00:00.000Z'));
    admin = { ...admin, headers: { authorization: `Bearer ${await sessionFor(t, admin.id)}` } };
    const term = await t.app.inject({
      method: 'POST',
      url: `/api/v1/committees/${committeeId}/terms`,
      headers: admin.headers,
      payload: TERM,
    });
    termId = term.json().data.id;
    paper = await uploadFile(t, admin, { title: 'Prüfbericht Zeder', folderId: 2, roles: ['Aufsichtsrat'] });
    await t.app.searchIndexer.drain();
  });
  afterAll(() => t?.close());

  it(`agrees in ${RUNS} random worlds`, async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const db = t.db.kysely;
        t.clock.set(new Date('2026-06-01T10:00:00.000Z'));
        await db.deleteFrom('committee_memberships').execute();
        await db.deleteFrom('user_roles').where('via_committee', '=', 1).where('direct', '=', 0).execute();
        const rules = JSON.parse(
          (
            await db
              .selectFrom('committees')
              .select('rules')
              .where('id', '=', committeeId)
              .executeTakeFirstOrThrow()
          ).rules,
        );
        await db
          .updateTable('committees')
          .set({ rules: JSON.stringify({ ...rules, substitutes_see_papers: w.substitutesSee }) })
          .where('id', '=', committeeId)
          .execute();
        const people: TestUser[] = [];
        for (const roles of w.direct) people.push(await createUser(t, { roles: [...roles] }));
        const kept: typeof w.memberships = [];
        for (const m of w.memberships) {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/v1/committees/${committeeId}/members`,
            headers: admin.headers,
            payload: {
              term_id: termId,
              user_id: people[m.person]!.id,
              function: m.function,
              rank: m.function === 'ersatzmitglied' ? 1 : null,
              from: m.from,
              until: m.until,
            },
          });
          // Two Vorsitz at once or the same person twice are refused; the rest must be taken.
          if (res.statusCode === 201) kept.push(m);
          else expect(res.statusCode, res.body).toBe(422);
        }

        t.clock.set(noonInBerlin(w.today));
        await t.app.memberships.run();
        for (const [index, person] of people.entries()) {
          const fromMemberships = kept.some(
            (m) =>
              m.person === index &&
              m.from <= w.today &&
              w.today <= m.until &&
              (m.function !== 'ersatzmitglied' || w.substitutesSee),
          );
          const expected = new Set<string>(w.direct[index]);
          if (fromMemberships) expected.add('Aufsichtsrat');
          const held = await db
            .selectFrom('user_roles')
            .innerJoin('roles', 'roles.id', 'user_roles.role_id')
            .select('roles.name')
            .where('user_roles.user_id', '=', person.id)
            .execute();
          expect(new Set(held.map((row) => row.name)), `Rollen von ${index} am ${w.today}`).toEqual(expected);

          const headers = { authorization: `Bearer ${await sessionFor(t, person.id)}` };
          const sees = expected.has('Aufsichtsrat');
          const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
          const tree = (await get('/tree')).json().data as TreeNode;
          expect(JSON.stringify(tree).includes(paper.title), 'Baum').toBe(sees);
          const listing = await get('/folders/2/files');
          expect(listing.statusCode === 200 && listing.body.includes(paper.title), 'Ordner').toBe(sees);
          expect((await get('/search?q=Zeder')).body.includes(paper.title), 'Suche').toBe(sees);
          expect((await get(`/download/${paper.external}`)).statusCode, 'Download').toBe(sees ? 200 : 404);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
