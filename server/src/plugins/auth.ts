import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.ts';
import type { Clock } from '../clock.ts';
import { MINUTE, HOUR } from '../clock.ts';
import { AppError, forbidden, notFound, unauthenticated } from '../errors.ts';
import { requiresSecondFactor } from '../policies/two-factor.policy.ts';
import { TWO_FACTOR_MESSAGES, TWO_FACTOR_SETUP_REQUIRED } from '@gremienportal/contracts/two-factor';
import { hashToken } from '../tokens.ts';
import { adminKind, mayUseAdminRoutes, type Principal } from '../policies/principal.ts';

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

export const principalLabel = (p: Pick<Principal, 'firstname' | 'lastname' | 'email'>) =>
  `${p.firstname} ${p.lastname} <${p.email}>`;

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

export const authPlugin = fp(async function authPlugin(app: FastifyInstance, options: AuthOptions) {
  const { db, clock } = options;
  const idleMs = options.idleMinutes * MINUTE;
  const absoluteMs = options.absoluteHours * HOUR;
  const touchMs = touchIntervalMs(idleMs);

  app.decorateRequest('principal', null);

  async function authenticate(request: FastifyRequest): Promise<Principal | null> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match) return null;
    const session = await db.kysely
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id as session_id',
        'sessions.created_at',
        'sessions.last_seen_at',
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
      ])
      .where('sessions.token_hash', '=', hashToken(match[1]!))
      .executeTakeFirst();
    if (!session) return null;
    const now = clock.now();
    const lastSeen = new Date(session.last_seen_at).getTime();
    if (
      now.getTime() - lastSeen > idleMs ||
      now.getTime() - new Date(session.created_at).getTime() > absoluteMs
    ) {
      await db.kysely.deleteFrom('sessions').where('id', '=', session.session_id).execute();
      return null;
    }
    if (now.getTime() - lastSeen > touchMs) {
      // Only extends the idle time: when it cannot be written (a full disk), the request goes on.
      await db.kysely
        .updateTable('sessions')
        .set({ last_seen_at: now.toISOString() })
        .where('id', '=', session.session_id)
        .execute()
        .catch((error: unknown) =>
          request.log.warn({ err: error }, 'Sitzung konnte nicht verlängert werden'),
        );
    }
    // Roles are read on every request, so a removed role grants nothing from the next request on.
    const roles = await db.kysely
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select(['roles.id', 'roles.name'])
      .where('user_roles.user_id', '=', session.id)
      .orderBy('roles.id')
      .execute();
    const roleNames = roles.map((role) => role.name);
    return {
      id: session.id,
      sessionId: session.session_id,
      email: session.email,
      title: session.title,
      firstname: session.firstname,
      lastname: session.lastname,
      roles: roleNames,
      roleIds: roles.map((role) => role.id),
      ...adminKind(roleNames),
      readState: {
        since:
          session.news_read_at && session.news_read_at > session.user_created_at
            ? session.news_read_at
            : session.user_created_at,
        version: Number(session.news_version),
      },
      needsTwoFactorSetup:
        !session.two_factor_enabled &&
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
      } else if (access === 'admin' && !mayUseAdminRoutes(principal)) done(forbidden());
      else if (access === 'admin-hidden' && !mayUseAdminRoutes(principal)) done(notFound());
      else done();
    }, done);
  });
});
