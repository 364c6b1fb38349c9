import type { RoleName } from '@gremienportal/contracts/common';
import type { TestApp } from './build-test-app.ts';
import { hashPassword } from '../../src/credentials/passwords.ts';
import { hashToken, newToken } from '../../src/credentials/tokens.ts';

export const TEST_PASSWORD = 'Sicheres-Passwort-42';
let cachedHash: Promise<string> | undefined;
/** Hashing once keeps the suite fast; argon2id at OWASP cost takes tens of milliseconds. */
const testPasswordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD));

let counter = 0;

export interface TestUser {
  id: number;
  email: string;
  password: string;
  /** A bearer token of a fresh session. */
  token: string;
  /** `{ authorization: 'Bearer …' }` for app.inject. */
  headers: { authorization: string };
}

export async function roleIds(t: TestApp, names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await t.db.kysely
    .selectFrom('roles')
    .select(['id', 'name'])
    .where('name', 'in', [...names])
    .execute();
  return names.map((name) => rows.find((row) => row.name === name)!.id);
}

/** Starts a session for a user, as a login would. */
export async function sessionFor(t: TestApp, userId: number): Promise<string> {
  const token = newToken();
  const now = t.clock.now().toISOString();
  await t.db.kysely
    .insertInto('sessions')
    .values({ user_id: userId, token_hash: hashToken(token), created_at: now, last_seen_at: now })
    .execute();
  return token;
}

export async function createUser(
  t: TestApp,
  options: { roles?: RoleName[]; email?: string; firstname?: string; lastname?: string; title?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const now = t.clock.now().toISOString();
  const email = (options.email ?? `nutzer${counter}-${Date.now()}@example.org`).toLowerCase();
  const user = await t.db.kysely
    .insertInto('users')
    .values({
      title: options.title ?? 'Frau',
      firstname: options.firstname ?? 'Erika',
      lastname: options.lastname ?? `Muster${counter}`,
      email,
      password_hash: await testPasswordHash(),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids = await roleIds(t, options.roles ?? []);
  if (ids.length > 0) {
    await t.db.kysely
      .insertInto('user_roles')
      .values(ids.map((role_id) => ({ user_id: user.id, role_id })))
      .execute();
  }
  const token = await sessionFor(t, user.id);
  return {
    id: user.id,
    email,
    password: TEST_PASSWORD,
    token,
    headers: { authorization: `Bearer ${token}` },
  };
}

/** One user per role, as most permission tests need them. */
export async function createRoleUsers(t: TestApp) {
  return {
    superAdmin: await createUser(t, { roles: ['Super-Admin'] }),
    admin: await createUser(t, { roles: ['Admin'] }),
    aufsichtsrat: await createUser(t, { roles: ['Aufsichtsrat'] }),
    vertreter: await createUser(t, { roles: ['Vertreter'] }),
  };
}

/**
 * The members' own notification choices (decision 131; new accounts get "täglich" for documents and
 * "sofort" for events). Tests of the single notification mails let their recipients choose "sofort".
 */
export async function chooseNotifications(
  t: TestApp,
  users: readonly { id: number }[],
  settings: {
    files?: 'sofort' | 'taeglich' | 'woechentlich' | 'nie';
    events?: 'sofort' | 'taeglich' | 'woechentlich' | 'nie';
  },
): Promise<void> {
  if (users.length === 0 || (!settings.files && !settings.events)) return;
  await t.db.kysely
    .updateTable('users')
    .set({
      ...(settings.files ? { notify_files: settings.files } : {}),
      ...(settings.events ? { notify_events: settings.events } : {}),
    })
    .where(
      'id',
      'in',
      users.map((user) => user.id),
    )
    .execute();
}
