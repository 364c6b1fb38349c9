import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { requiresSecondFactor } from '../policies/two-factor.policy.ts';
import { hashToken } from '../credentials/tokens.ts';
import { API_KEY_PREFIX } from '@gremienportal/contracts/api-keys';
import { adminKind, type Principal } from '../policies/principal.ts';

interface Role {
  id: number;
  name: string;
}

/** What a token resolved to: its principal and what decides whether it still holds. */
export interface Resolved {
  table: 'sessions' | 'api_keys';
  rowId: number;
  principal: Principal;
  /** `last_seen_at` of a session, `last_used_at` of a key (ms), null when never used. */
  lastMs: number | null;
  /** A session's start (ms); 0 for a key. */
  createdMs: number;
  /** A key's date (ms); infinite for a session. */
  expiresMs: number;
}

/** Freezes an object and the objects and arrays in it. */
function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) {
    if (typeof inner === 'object' && inner !== null && !Object.isFrozen(inner)) deepFreeze(inner as object);
  }
  return Object.freeze(value);
}

/** The user's columns every request needs, with the session or the API-Schlüssel. */
const USER_COLUMNS = [
  'users.id',
  'users.email',
  'users.title',
  'users.firstname',
  'users.lastname',
  'users.two_factor_enabled',
  // The read state (decision 131) comes with the session: "neu" markers cost no extra query.
  'users.created_at as user_created_at',
  'users.news_read_at',
  'users.news_version',
  'users.email_visible_to_committees',
] as const;

/**
 * Whether the user has any committee membership (decision 189), read with the user: the account
 * answers from the principal and looks the memberships up only for a member who has some.
 */
const hasMemberships = (eb: ExpressionBuilder<Database, 'users'>) =>
  eb
    .exists(
      eb
        .selectFrom('committee_memberships')
        .select('committee_memberships.id')
        .whereRef('committee_memberships.user_id', '=', 'users.id'),
    )
    .as('has_memberships');

/**
 * Reads the session or API-Schlüssel behind a bearer token with its user and roles, as one
 * principal (frozen: the principal cache shares it between requests), or null for an unknown token.
 */
export function principalResolver(db: Db, twoFactorRoles: readonly string[]) {
  const sessionRow = (tokenHash: string) =>
    db.kysely
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id as session_id', 'sessions.created_at', 'sessions.last_seen_at', ...USER_COLUMNS])
      .select(hasMemberships)
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
  const keyRow = (tokenHash: string) =>
    db.kysely
      .selectFrom('api_keys')
      .innerJoin('users', 'users.id', 'api_keys.user_id')
      .select([
        'api_keys.id as key_id',
        'api_keys.name as key_name',
        'api_keys.scopes',
        'api_keys.expires_at',
        'api_keys.last_used_at',
        ...USER_COLUMNS,
      ])
      .select(hasMemberships)
      .where('api_keys.token_hash', '=', tokenHash)
      .executeTakeFirst();
  // Roles are read with the session, so a removed role grants nothing from the next request on.
  const rolesOf = (userId: number) =>
    db.kysely
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name'])
      .where('user_roles.user_id', '=', userId)
      .orderBy('roles.id')
      .execute();

  type UserRow = Pick<
    NonNullable<Awaited<ReturnType<typeof sessionRow>>>,
    | 'id'
    | 'email'
    | 'title'
    | 'firstname'
    | 'lastname'
    | 'two_factor_enabled'
    | 'user_created_at'
    | 'news_read_at'
    | 'news_version'
    | 'email_visible_to_committees'
    | 'has_memberships'
  >;

  function principalOfRows(
    user: UserRow,
    roles: Role[],
    sessionId: number | null,
    apiKey?: Principal['apiKey'],
  ) {
    const roleNames = roles.map((role) => role.name);
    const principal: Principal = {
      id: user.id,
      sessionId,
      ...(apiKey ? { apiKey } : {}),
      email: user.email,
      title: user.title,
      firstname: user.firstname,
      lastname: user.lastname,
      roles: roleNames,
      roleIds: roles.map((role) => role.id),
      ...adminKind(roleNames),
      readState: {
        since:
          user.news_read_at && user.news_read_at > user.user_created_at
            ? user.news_read_at
            : user.user_created_at,
        version: Number(user.news_version),
      },
      twoFactorEnabled: Boolean(user.two_factor_enabled),
      emailVisibleToCommittees: user.email_visible_to_committees === 1,
      // SQLite answers 0 or 1, PostgreSQL a boolean.
      hasCommitteeMemberships: Boolean(user.has_memberships),
      needsTwoFactorSetup:
        !user.two_factor_enabled &&
        requiresSecondFactor({ TWO_FACTOR_REQUIRED_ROLES: twoFactorRoles }, roleNames),
    };
    // Shared by every request of the token while it is cached: nobody may change it.
    return deepFreeze(principal);
  }

  /** Reads the session or key behind a token with its user and roles, as one principal. */
  return async function resolve(token: string): Promise<Resolved | null> {
    const tokenHash = hashToken(token);
    if (token.startsWith(API_KEY_PREFIX)) {
      const key = await keyRow(tokenHash);
      if (!key) return null;
      const apiKey = { id: key.key_id, name: key.key_name, scopes: Object.freeze(key.scopes.split(',')) };
      return {
        table: 'api_keys',
        rowId: key.key_id,
        principal: principalOfRows(key, await rolesOf(key.id), null, apiKey),
        lastMs: key.last_used_at ? Date.parse(key.last_used_at) : null,
        createdMs: 0,
        expiresMs: Date.parse(key.expires_at),
      };
    }
    const session = await sessionRow(tokenHash);
    if (!session) return null;
    return {
      table: 'sessions',
      rowId: session.session_id,
      principal: principalOfRows(session, await rolesOf(session.id), session.session_id),
      lastMs: Date.parse(session.last_seen_at),
      createdMs: Date.parse(session.created_at),
      expiresMs: Number.POSITIVE_INFINITY,
    };
  };
}
