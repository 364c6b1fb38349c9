import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.ts';
import type { Clock } from '../clock.ts';
import { MINUTE, HOUR } from '../clock.ts';
import { AppError, forbidden, notFound, unauthenticated } from '../errors.ts';
import { requiresSecondFactor } from '../policies/two-factor.policy.ts';
import { TWO_FACTOR_MESSAGES, TWO_FACTOR_SETUP_REQUIRED } from '@gremienportal/contracts/two-factor';
import { hashToken } from '../tokens.ts';
import { API_KEY_MESSAGES, API_KEY_PREFIX } from '@gremienportal/contracts/api-keys';
import { keyMayCall } from '../policies/api-key.policy.ts';
import { adminKind, mayUseAdminRoutes, type Principal } from '../policies/principal.ts';

interface Role {
  id: number;
  name: string;
}

export type { Principal };

/**
 * Route access, deny by default: every route needs a signed-in user unless its config says
 * `access: 'public'`; `access: 'admin'` also needs Admin or Super-Admin. `access: 'admin-hidden'`
 * too, but answers anyone else 404 as for a hidden object: the route's object (a document's old
 * versions, the Papierkorb) does not exist for members (issue 17).
 */
export type RouteAccess = 'public' | 'user' | 'admin' | 'admin-hidden';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /**
     * Usable by a member whose role requires a second factor they have not set up yet (issue 18):
     * their own account, setting the factor up, signing out. Every other route answers 403.
     */
    duringTwoFactorSetup?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export interface AuthOptions {
  db: Db;
  clock: Clock;
  /** TWO_FACTOR_REQUIRED_ROLES. */
  twoFactorRoles: readonly string[];
  idleMinutes: number;
  absoluteHours: number;
}

/**
 * Writes of `last_seen_at` are skipped when the last one is this recent: at most a minute, and at
 * most a tenth of the idle limit. The stored value lags behind the last request by up to this
 * much, so a session ends at the latest after the idle limit and at the earliest after nine tenths
 * of it (with a one-minute limit a write interval of a full minute would end it after seconds).
 */
const touchIntervalMs = (idleMs: number) => Math.min(MINUTE, idleMs / 10);

export const principalLabel = (
  p: Pick<Principal, 'firstname' | 'lastname' | 'email'> & Partial<Pick<Principal, 'apiKey'>>,
) => `${p.firstname} ${p.lastname} <${p.email}>${p.apiKey ? ` über API-Schlüssel „${p.apiKey.name}“` : ''}`;

/** The signed-in user of a route that required one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}

/** Who changes something, and from where (for the audit log). */
export interface Actor {
  principal: Principal;
  ip: string;
}

/** The signed-in user of a route that required one, with the client address. */
export const actorOf = (request: FastifyRequest): Actor => ({
  principal: principalOf(request),
  ip: request.ip,
});

const TOUCH_FAILED = {
  sessions: 'Sitzung konnte nicht verlängert werden',
  api_keys: 'Letzte Nutzung des API-Schlüssels konnte nicht gespeichert werden',
} as const;

/** The user's columns every request needs, with the session or the API-Schlüssel. */
const USER_COLUMNS = [
  'users.id',
  'users.email',
  'users.title',
  'users.firstname',
  'users.lastname',
  'users.two_factor_enabled',
  // The read state (issue 21) comes with the session: "neu" markers cost no extra query.
  'users.created_at as user_created_at',
  'users.news_read_at',
  'users.news_version',
] as const;

export const authPlugin = fp(async function authPlugin(app: FastifyInstance, options: AuthOptions) {
  const { db, clock } = options;
  const idleMs = options.idleMinutes * MINUTE;
  const absoluteMs = options.absoluteHours * HOUR;
  const touchMs = touchIntervalMs(idleMs);

  app.decorateRequest('principal', null);

  /** Writes `last_seen_at`/`last_used_at` at most every `touchMs`; a failed write is only logged. */
  function touch(request: FastifyRequest, table: 'sessions' | 'api_keys', id: number, last: string | null) {
    const now = clock.now();
    if (last && now.getTime() - new Date(last).getTime() <= touchMs) return Promise.resolve();
    const at = now.toISOString();
    const update =
      table === 'sessions'
        ? db.kysely.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id)
        : db.kysely.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id);
    // Only extends the idle time or notes the use: when it cannot be written (a full disk), the
    // request goes on.
    return update
      .execute()
      .then(() => undefined)
      .catch((error: unknown) => request.log.warn({ err: error }, TOUCH_FAILED[table]));
  }

  const sessionRow = (tokenHash: string) =>
    db.kysely
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id as session_id', 'sessions.created_at', 'sessions.last_seen_at', ...USER_COLUMNS])
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
  type Found =
    | { kind: 'session'; row: NonNullable<Awaited<ReturnType<typeof sessionRow>>>; roles: Role[] }
    | { kind: 'key'; row: NonNullable<Awaited<ReturnType<typeof keyRow>>>; roles: Role[] };

  /**
   * The rows behind a token, from the principal cache when they were read a moment ago and
   * nothing they come from was written since (db/principal-cache.ts, decision 137).
   */
  async function lookup(token: string): Promise<Found | null> {
    const tokenHash = hashToken(token);
    const cached = db.principals.get(tokenHash) as Found | undefined;
    if (cached) return cached;
    const mark = db.principals.mark();
    let found: Found | null = null;
    if (token.startsWith(API_KEY_PREFIX)) {
      const row = await keyRow(tokenHash);
      if (row) found = { kind: 'key', row, roles: await rolesOf(row.id) };
    } else {
      const row = await sessionRow(tokenHash);
      if (row) found = { kind: 'session', row, roles: await rolesOf(row.id) };
    }
    // Unknown tokens are not kept: a flood of them must not push out the members' entries.
    if (found) db.principals.set(tokenHash, found, mark);
    return found;
  }

  async function authenticate(request: FastifyRequest): Promise<Principal | null> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) return null;
    const found = await lookup(match[1]!);
    if (!found) return null;
    const now = clock.now();
    let sessionId: number | null = null;
    let apiKey: Principal['apiKey'];
    if (found.kind === 'session') {
      const session = found.row;
      if (
        now.getTime() - new Date(session.last_seen_at).getTime() > idleMs ||
        now.getTime() - new Date(session.created_at).getTime() > absoluteMs
      ) {
        await db.kysely.deleteFrom('sessions').where('id', '=', session.session_id).execute();
        return null;
      }
      await touch(request, 'sessions', session.session_id, session.last_seen_at);
      sessionId = session.session_id;
    } else {
      // An API-Schlüssel (issue 22): valid until it expires or is revoked; no idle limit.
      const key = found.row;
      if (now.toISOString() >= key.expires_at) return null;
      await touch(request, 'api_keys', key.key_id, key.last_used_at);
      apiKey = { id: key.key_id, name: key.key_name, scopes: key.scopes.split(',') };
    }
    const user = found.row;
    const roles = found.roles;
    const roleNames = roles.map((role) => role.name);
    return {
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
      needsTwoFactorSetup:
        !user.two_factor_enabled &&
        requiresSecondFactor({ TWO_FACTOR_REQUIRED_ROLES: options.twoFactorRoles }, roleNames),
    };
  }

  // onRequest: before the body is read, so nobody signed out can make the server parse an upload.
  // Public routes pass without a promise: the hook runs on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    const access = request.routeOptions.config.access ?? 'user';
    if (access === 'public') {
      done();
      return;
    }
    authenticate(request).then((principal) => {
      request.principal = principal;
      if (!principal) done(unauthenticated());
      else if (principal.needsTwoFactorSetup && !request.routeOptions.config.duringTwoFactorSetup) {
        done(
          new AppError(
            'forbidden',
            TWO_FACTOR_MESSAGES.setupRequired,
            undefined,
            undefined,
            TWO_FACTOR_SETUP_REQUIRED,
          ),
        );
      } else if (!keyMayCall(principal, request.method, request.routeOptions.url ?? '')) {
        done(new AppError('forbidden', API_KEY_MESSAGES.outOfScope));
      } else if (access === 'admin' && !mayUseAdminRoutes(principal)) done(forbidden());
      else if (access === 'admin-hidden' && !mayUseAdminRoutes(principal)) done(notFound());
      else done();
    }, done);
  });
});
