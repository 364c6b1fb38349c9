import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.ts';
import type { Clock } from '../clock.ts';
import { MINUTE, HOUR } from '../clock.ts';
import { AppError, forbidden, notFound, unauthenticated } from '../errors.ts';
import { TWO_FACTOR_MESSAGES, TWO_FACTOR_SETUP_REQUIRED } from '@gremienportal/contracts/two-factor';
import { API_KEY_MESSAGES } from '@gremienportal/contracts/api-keys';
import { keyMayCall } from '../policies/api-key.policy.ts';
import { principalResolver, type Resolved } from './principal-resolver.ts';
import { mayUseAdminRoutes, type Principal } from '../policies/principal.ts';

/**
 * Route access, deny by default: every route needs a signed-in user unless its config says
 * `access: 'public'`; `access: 'admin'` also needs Admin or Super-Admin. `access: 'admin-hidden'`
 * too, but answers anyone else 404 as for a hidden object: the route's object (a document's old
 * versions, the Papierkorb) does not exist for members (decision 125).
 */
export type RouteAccess = 'public' | 'user' | 'admin' | 'admin-hidden';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /**
     * Usable by a member whose role requires a second factor they have not set up yet (decision 126):
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

export const authPlugin = fp(async function authPlugin(app: FastifyInstance, options: AuthOptions) {
  const { db, clock } = options;
  const resolve = principalResolver(db, options.twoFactorRoles);
  const idleMs = options.idleMinutes * MINUTE;
  const absoluteMs = options.absoluteHours * HOUR;
  const touchMs = touchIntervalMs(idleMs);

  app.decorateRequest('principal', null);

  /** Writes `last_seen_at`/`last_used_at` (when due, see `touchDue`); a failed write is only logged. */
  function touch(request: FastifyRequest, table: Resolved['table'], id: number, nowMs: number) {
    const at = new Date(nowMs).toISOString();
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

  /**
   * The principal behind a token, from the principal cache when it was resolved a moment ago and
   * nothing it comes from was written since (db/principal-cache.ts, decision 137). The cache is
   * keyed by the token itself, so a hit costs no hash; entries live for a second at most.
   */
  async function lookup(token: string): Promise<Resolved | null> {
    const mark = db.principals.mark();
    const found = await resolve(token);
    // Unknown tokens are not kept: a flood of them must not push out the members' entries.
    if (found) db.principals.set(token, found, mark);
    return found;
  }

  /** The token of an `Authorization: Bearer` header, or undefined. */
  function bearerToken(request: FastifyRequest): string | undefined {
    const header = request.headers.authorization;
    return header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  }

  /** Ended at `nowMs`: a session after its idle or absolute limit, a key on its date. */
  const ended = (found: Resolved, nowMs: number) =>
    found.table === 'sessions'
      ? nowMs - found.lastMs! > idleMs || nowMs - found.createdMs > absoluteMs
      : nowMs >= found.expiresMs;
  /** `last_seen_at`/`last_used_at` is due to be written (at most every `touchMs`). */
  const touchDue = (found: Resolved, nowMs: number) =>
    found.lastMs === null || nowMs - found.lastMs > touchMs;

  async function authenticate(request: FastifyRequest, token: string): Promise<Principal | null> {
    const found = await lookup(token);
    if (!found) return null;
    const nowMs = clock.now().getTime();
    if (ended(found, nowMs)) {
      if (found.table === 'sessions')
        await db.kysely.deleteFrom('sessions').where('id', '=', found.rowId).execute();
      return null;
    }
    if (touchDue(found, nowMs)) await touch(request, found.table, found.rowId, nowMs);
    return found.principal;
  }

  /** The route's own rules for a signed-in principal: the 2FA setup gate, key scopes, admin routes. */
  function admit(
    request: FastifyRequest,
    route: FastifyRequest['routeOptions'],
    principal: Principal | null,
  ): Error | undefined {
    request.principal = principal;
    const access = route.config.access ?? 'user';
    if (!principal) return unauthenticated();
    if (principal.needsTwoFactorSetup && !route.config.duringTwoFactorSetup) {
      return new AppError(
        'forbidden',
        TWO_FACTOR_MESSAGES.setupRequired,
        undefined,
        undefined,
        TWO_FACTOR_SETUP_REQUIRED,
      );
    }
    if (!keyMayCall(principal, request.method, route.url ?? '')) {
      return new AppError('forbidden', API_KEY_MESSAGES.outOfScope);
    }
    if (access === 'admin' && !mayUseAdminRoutes(principal)) return forbidden();
    if (access === 'admin-hidden' && !mayUseAdminRoutes(principal)) return notFound();
    return undefined;
  }

  // onRequest: before the body is read, so nobody signed out can make the server parse an upload.
  // It runs on every request: public routes pass without a promise, and so does a token the
  // principal cache knows whose session needs no write (decision 137: most requests of a member).
  app.addHook('onRequest', (request, _reply, done) => {
    // A getter that builds a new object on every use: read once.
    const route = request.routeOptions;
    if (route.config.access === 'public') {
      done();
      return;
    }
    const token = bearerToken(request);
    if (!token) {
      done(admit(request, route, null));
      return;
    }
    const cached = db.principals.get(token) as Resolved | undefined;
    if (cached) {
      const nowMs = clock.now().getTime();
      if (!ended(cached, nowMs) && !touchDue(cached, nowMs)) {
        done(admit(request, route, cached.principal));
        return;
      }
    }
    authenticate(request, token).then((principal) => done(admit(request, route, principal)), done);
  });
});
