import type { AuthUser } from '@gremienportal/contracts/auth';
import { storeAuth } from '../lib/auth';

export function makeUser(overrides: Partial<AuthUser> = {}): AuthUser {
  const firstname = overrides.firstname ?? 'Erika';
  const lastname = overrides.lastname ?? 'Mustermann';
  return {
    id: 7,
    title: 'Frau',
    email: 'erika@example.org',
    roles: ['Vertreter'],
    ...overrides,
    firstname,
    lastname,
    name: `${firstname} ${lastname}`,
  };
}

export const adminUser = (overrides: Partial<AuthUser> = {}) =>
  makeUser({
    id: 1,
    firstname: 'Anna',
    lastname: 'Admin',
    email: 'admin@example.org',
    roles: ['Admin'],
    ...overrides,
  });

export const vertreterUser = (overrides: Partial<AuthUser> = {}) =>
  makeUser({ roles: ['Vertreter'], ...overrides });

/** Signs a user in the way a previous login would have: token and user in local storage. */
export function signIn(user: AuthUser = makeUser(), token = 'test-token'): AuthUser {
  storeAuth(token, user);
  return user;
}
