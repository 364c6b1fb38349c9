import type { AuthUser } from '@gremienportal/contracts/auth';
import type { StoredFile } from '@gremienportal/contracts/files';
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

/** A PDF "Protokoll März" in "/Aufsichtsrat/Sitzungen 2026", as the file dialog's tests show it. */
export function makeStoredFile(overrides: Partial<StoredFile> = {}): StoredFile {
  return {
    type: 'file',
    id: 31,
    title: 'Protokoll März',
    format: 'pdf',
    date: '2026-03-12T10:00:00.000Z',
    external: 'abcdefghijklmnopqrstuv',
    mime_type: 'application/pdf',
    roles: ['Aufsichtsrat'],
    roles_string: 'Aufsichtsrat',
    folder: { id: 10, title: 'Sitzungen 2026', breadcrumb: '/Aufsichtsrat/Sitzungen 2026' },
    folder_id: 10,
    folder_name: 'Sitzungen 2026',
    size: 1.25,
    size_bytes: 1_310_720,
    updated_at: '2026-03-12T10:00:00.000Z',
    archived: false,
    ...overrides,
  };
}

/** An "Einladung" for the Vertreter that asks for a Kenntnisnahme by 1 December 2026. */
export const makeInvitationFile = (overrides: Partial<StoredFile> = {}): StoredFile =>
  makeStoredFile({
    title: 'Einladung',
    date: '2026-11-20T10:00:00.000Z',
    roles: ['Vertreter'],
    roles_string: 'Vertreter',
    folder: { id: 3, title: 'Mitgliedervertreter', breadcrumb: '/Mitgliedervertreter' },
    folder_id: 3,
    folder_name: 'Mitgliedervertreter',
    size: 0.01,
    size_bytes: 1000,
    updated_at: '2026-11-20T10:00:00.000Z',
    acknowledgement_required: true,
    acknowledgement_due: '2026-12-01',
    ...overrides,
  });
