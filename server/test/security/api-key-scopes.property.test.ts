import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES, API_KEY_SCOPES, type ApiKeyScope } from '@gremienportal/contracts/api-keys';
import type { RoleName } from '@gremienportal/contracts/common';
import { keyMayCall, keyMayWriteAccount, scopeForRoute } from '../../src/policies/api-key.policy.ts';
import { mayChangeUser, mayGrantOrRevoke } from '../../src/policies/users.policy.ts';
import type { Principal } from '../../src/policies/principal.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { createUser, type TestUser } from '../support/factories.ts';
import { apiRoutes, routeKey, type RegisteredRoute } from './route-inventory.ts';

/**
 * Decision 146, beside the authorization matrix: for every set of scopes and every route, a key
 * reaches at most what its scopes name, and never anything only a Super-Admin may do to accounts:
 * granting, keeping or removing Admin and Super-Admin, or writing to an administrator's account.
 */

const ROLES: readonly RoleName[] = ['Admin', 'Super-Admin', 'Aufsichtsrat', 'Vertreter'];
const scopeSet = fc.subarray([...API_KEY_SCOPES], { minLength: 1 });
const roleSet = fc.subarray([...ROLES]);
const named = (roles: readonly string[]) => roles.map((name) => ({ name }));
const keyOf = (scopes: readonly ApiKeyScope[]): Pick<Principal, 'apiKey'> => ({
  apiKey: { id: 1, name: 'Eigenschaft', scopes },
});

/** The account writes a key with `nutzer:schreiben` reaches; every such route must be listed. */
const ACCOUNT_WRITES = [
  'POST /api/v1/user',
  'PUT /api/v1/user/:id',
  'DELETE /api/v1/user/:id',
  'POST /api/v1/user/:id/invitation',
] as const;
type AccountRoute = (typeof ACCOUNT_WRITES)[number];

describe('API-Schlüssel: at most their scopes, never a Super-Admin’s power over accounts', () => {
  let t: TestApp;
  let routes: RegisteredRoute[];
  let superAdmin: TestUser;
  beforeAll(async () => {
    t = await buildTestApp();
    routes = apiRoutes(t.app);
    superAdmin = await createUser(t, { roles: ['Super-Admin'] });
  });
  afterAll(() => t?.close());

  it('lets a key call a route only with the scope the route names', () => {
    fc.assert(
      fc.property(scopeSet, fc.nat(), (scopes, pick) => {
        const route = routes[pick % routes.length]!;
        const scope = scopeForRoute(route.method, route.url);
        const allowed = keyMayCall(keyOf(scopes), route.method, route.url);
        expect(allowed, routeKey(route)).toBe(scope !== null && scopes.includes(scope));
        // Managing keys and resetting a second factor are no scope's, whatever the key holds.
        if (/\/(api-keys|account|trash)(\/|$)|\/two-factor$/.test(route.url)) expect(allowed).toBe(false);
      }),
      { numRuns: 500 },
    );
    // Every route that writes accounts is one of the writes checked below.
    const accountWrites = routes
      .filter((route) => scopeForRoute(route.method, route.url) === 'nutzer:schreiben')
      .map(routeKey)
      .filter((key) => !key.startsWith('HEAD '));
    expect(accountWrites.filter((key) => key.includes('/user') || key.includes('/roles')).sort()).toEqual(
      [...ACCOUNT_WRITES].sort(),
    );
  });

  it('allows a key no account write an Admin (no Super-Admin) could not make', () => {
    fc.assert(
      fc.property(scopeSet, roleSet, roleSet, (scopes, target, changed) => {
        const write = { targetRoles: named(target), changedRoles: named(changed) };
        const asKey = keyMayWriteAccount(keyOf(scopes), write);
        const asAdmin =
          mayChangeUser(false, { roles: write.targetRoles }) && mayGrantOrRevoke(false, write.changedRoles);
        if (asKey) expect(asAdmin).toBe(true);
        expect(asKey).toBe(
          !target.some((r) => r.includes('Admin')) && !changed.some((r) => r.includes('Admin')),
        );
        // People are judged by the users policy alone.
        expect(keyMayWriteAccount({}, write)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('holds through the API: random scopes, writes, targets and roles', async () => {
    let serial = 0;
    await fc.assert(
      fc.asyncProperty(
        scopeSet,
        fc.constantFrom(...ACCOUNT_WRITES),
        roleSet,
        roleSet,
        async (scopes, route: AccountRoute, targetRoles, newRoles) => {
          serial += 1;
          const issued = await t.app.inject({
            method: 'POST',
            url: '/api/v1/api-keys',
            headers: superAdmin.headers,
            payload: { name: `Eigenschaft ${serial}`, scopes },
          });
          expect(issued.statusCode, issued.body).toBe(201);
          const headers = { authorization: `Bearer ${issued.json().data.token as string}` };
          const target = await createUser(t, { roles: targetRoles });
          if (route === 'POST /api/v1/user/:id/invitation') {
            await t.db.kysely
              .updateTable('users')
              .set({ password_hash: null })
              .where('id', '=', target.id)
              .execute();
          }
          const roles: RoleName[] = newRoles.length > 0 ? newRoles : ['Vertreter'];
          const person = { title: 'Herr', firstname: 'Prop', lastname: `Konto${serial}` };
          const [method, path] = route.split(' ') as [string, string];
          const res = await t.app.inject({
            method: method as 'POST' | 'PUT' | 'DELETE',
            url: path.replace(':id', String(target.id)),
            headers,
            ...(route === 'POST /api/v1/user'
              ? { payload: { ...person, email: `prop-neu-${serial}@example.org`, roles } }
              : route === 'PUT /api/v1/user/:id'
                ? { payload: { ...person, email: target.email, roles } }
                : {}),
          });
          const touchesAdmin =
            route === 'POST /api/v1/user'
              ? roles.some((r) => r.includes('Admin'))
              : targetRoles.some((r) => r.includes('Admin')) ||
                (route === 'PUT /api/v1/user/:id' &&
                  [
                    ...roles.filter((r) => !targetRoles.includes(r)),
                    ...targetRoles.filter((r) => !roles.includes(r)),
                  ].some((r) => r.includes('Admin')));
          const what = `${route} mit ${scopes.join(',')}, Ziel ${targetRoles.join(',')}, Rollen ${roles.join(',')}`;
          if (!scopes.includes('nutzer:schreiben')) {
            expect(res.statusCode, what).toBe(403);
            expect(res.json().message, what).toBe(API_KEY_MESSAGES.outOfScope);
          } else if (touchesAdmin) {
            expect(res.statusCode, what).toBe(403);
            expect(res.json().message, what).toBe(API_KEY_MESSAGES.adminAccountsOutOfReach);
          } else {
            expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
          }
          // Whatever happened, no administrator role changed hands through a key.
          const adminGrants = await t.db.kysely
            .selectFrom('audit_log')
            .select('details')
            .where('actor_label', 'like', '%über API-Schlüssel%')
            .where('action', 'in', ['user.created', 'user.roles_changed', 'user.deleted'])
            .execute();
          for (const row of adminGrants) expect(row.details ?? '', what).not.toMatch(/Admin/);
        },
      ),
      { numRuns: 40 },
    );
  });
});
