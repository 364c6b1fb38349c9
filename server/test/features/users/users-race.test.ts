import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAST_SUPER_ADMIN_MESSAGE } from '@gremienportal/contracts/users';
import { buildTestApp, type TestApp } from '../../support/build-test-app.ts';
import { createUser, roleIds, type TestUser } from '../../support/factories.ts';

// Concurrent writes to one account, repeated: on PostgreSQL two requests really overlap (a pool
// of connections); on SQLite the same rounds must hold as well.
const ROUNDS = 50;

type Body = { title: string; firstname: string; lastname: string; email: string; roles: string[] };

async function stored(t: TestApp, id: number) {
  const row = await t.db.kysely
    .selectFrom('users')
    .select(['title', 'firstname', 'lastname', 'email'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const roles = await t.db.kysely
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select('roles.name')
    .where('user_roles.user_id', '=', id)
    .execute();
  return { ...row, roles: roles.map((role) => role.name).sort() };
}

const asStored = (body: Body) => ({ ...body, roles: [...body.roles].sort() });

async function auditIds(t: TestApp, objectId: number, actorId: number) {
  const rows = await t.db.kysely
    .selectFrom('audit_log')
    .select(['id', 'details'])
    .where('object_type', '=', 'user')
    .where('object_id', '=', objectId)
    .where('actor_id', '=', actorId)
    .where('action', 'like', 'user.%')
    .orderBy('id')
    .execute();
  return rows;
}

describe('concurrent changes to one account', () => {
  let t: TestApp;
  let superAdmin: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await buildTestApp();
    superAdmin = await createUser(t, { roles: ['Super-Admin'] });
    admin = await createUser(t, { roles: ['Admin'] });
  });
  afterAll(() => t.close());

  it(`an Admin's change and a Super-Admin's grant of Admin never mix (${ROUNDS} rounds)`, async () => {
    const problems: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const target = await createUser(t, {
        roles: ['Aufsichtsrat', 'Vertreter'],
        title: 'Frau',
        firstname: 'Erika',
        lastname: `Runde${round}`,
      });
      const adminBody: Body = {
        title: 'Frau',
        firstname: 'Erika',
        lastname: `Geändert${round}`,
        email: target.email,
        roles: ['Aufsichtsrat'],
      };
      const superAdminBody: Body = {
        title: 'Herr',
        firstname: 'Erika',
        lastname: `Runde${round}`,
        email: target.email,
        roles: ['Admin', 'Aufsichtsrat', 'Vertreter'],
      };
      const put = (actor: TestUser, payload: Body) =>
        t.app.inject({ method: 'PUT', url: `/api/v1/user/${target.id}`, headers: actor.headers, payload });
      // Alternate which request starts first.
      const [adminRes, superAdminRes] =
        round % 2 === 0
          ? await Promise.all([put(admin, adminBody), put(superAdmin, superAdminBody)])
          : await Promise.all([put(superAdmin, superAdminBody), put(admin, adminBody)]).then(
              ([s, a]) => [a, s] as const,
            );

      const finalState = await stored(t, target.id);
      const adminAudit = await auditIds(t, target.id, admin.id);
      const superAdminAudit = await auditIds(t, target.id, superAdmin.id);
      const reasons: string[] = [];
      const fail = (what: string) => reasons.push(what);
      const report = () => {
        if (reasons.length > 0) {
          const state = JSON.stringify(finalState);
          problems.push(
            `Runde ${round}: ${reasons.join('; ')} (Admin ${adminRes.statusCode}, Zustand ${state})`,
          );
        }
      };

      if (superAdminRes.statusCode !== 200) fail(`Super-Admin ${superAdminRes.statusCode}`);
      if (![200, 403, 409].includes(adminRes.statusCode)) fail('unerwarteter Status des Admins');
      const matches = [adminBody, superAdminBody].filter(
        (body) => JSON.stringify(asStored(body)) === JSON.stringify(finalState),
      );
      if (matches.length !== 1) {
        fail('gemischter Zustand');
        report();
        continue;
      }
      if (adminRes.statusCode === 200) {
        // The Admin's write counted only if it came first: the Super-Admin's then saw its result
        // and wrote last.
        const adminLast = adminAudit.at(-1)?.id ?? 0;
        const superAdminFirst = superAdminAudit[0]?.id ?? 0;
        if (!(adminLast < superAdminFirst)) fail('Admin schrieb nach der Vergabe von Admin');
        const seen = JSON.parse(superAdminAudit.at(-1)?.details ?? '{}').old_roles;
        if (JSON.stringify(seen) !== JSON.stringify(['Aufsichtsrat'])) {
          fail(`Super-Admin sah ${JSON.stringify(seen)} statt des Ergebnisses des Admins`);
        }
        if (matches[0] !== superAdminBody) fail('der spätere Schreiber gewann nicht');
      } else {
        // Refused: nothing of the Admin's request applied, nothing recorded in its name.
        if (adminAudit.length > 0) fail('abgelehnte Anfrage protokolliert');
        if (matches[0] !== superAdminBody) fail('abgelehnte Anfrage hat etwas geändert');
      }
      report();
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it(`two Super-Admins demoting each other never leave none (${ROUNDS} rounds)`, async () => {
    const superAdminRole = (await roleIds(t, ['Super-Admin']))[0]!;
    const problems: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // Exactly two Super-Admins at the start of each round.
      await t.db.kysely.deleteFrom('user_roles').where('role_id', '=', superAdminRole).execute();
      const a = await createUser(t, { roles: ['Super-Admin'] });
      const b = await createUser(t, { roles: ['Super-Admin'] });
      const demote = (actor: TestUser, target: TestUser) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/v1/user/${target.id}`,
          headers: actor.headers,
          payload: {
            title: 'Frau',
            firstname: 'Erika',
            lastname: 'Muster',
            email: target.email,
            roles: ['Vertreter'],
          },
        });
      const [ab, ba] = await Promise.all([demote(a, b), demote(b, a)]);
      const holders = await t.db.kysely
        .selectFrom('user_roles')
        .select('user_id')
        .where('role_id', '=', superAdminRole)
        .execute();
      const statuses = [ab.statusCode, ba.statusCode].sort();
      if (holders.length !== 1) problems.push(`Runde ${round}: ${holders.length} Super-Admins übrig`);
      // One wins; the other meets the last-Super-Admin rule (422) or has lost its own role (403).
      if (statuses[0] !== 200 || ![403, 422].includes(statuses[1]!)) {
        problems.push(`Runde ${round}: Status ${statuses.join(', ')}`);
      }
      for (const res of [ab, ba]) {
        if (res.statusCode === 422 && res.json().message !== LAST_SUPER_ADMIN_MESSAGE) {
          problems.push(`Runde ${round}: ${res.json().message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);
});
