import type { ApiKeyScope } from '@gremienportal/contracts/api-keys';
import type { Principal } from './principal.ts';
import { isAdminRole } from './users.policy.ts';

/**
 * Which scope an API-Schlüssel needs for a route (decision 136), deny by default: a
 * route no rule names is out of reach for every key. Reads (GET, HEAD) need the `:lesen` scope of
 * their area, any other method the `:schreiben` one. Personal routes come first and need a scope
 * no key can have: one's own account, sign-in and second factor, the read state, one's own
 * Kenntnisnahme and attendance, the calendar feed, one's own sign-ins. Also out of reach: the
 * Papierkorb (a person's safety net), a member's second-factor reset and the keys themselves, and
 * the Beschlüsse, which no rule names.
 */
type Area = 'nutzer' | 'inhalte' | 'protokoll' | null;

/** Registered route paths (`/api/v1/files/:id`) without the prefix; first match wins. */
const RULES: readonly (readonly [RegExp, Area])[] = [
  [/^\/(account|auth|news|trash|api-keys)(\/|$)/, null],
  [/^\/files\/:id\/acknowledgement$/, null],
  [/^\/audit\/my-logins$/, null],
  [/^\/user\/:id\/two-factor$/, null],
  [/^\/calendar\//, null],
  // The Beschlüsse (motions, votes, the Beschlussbuch) are not for keys, nor what the agenda
  // would announce of them (decision 191).
  [/^\/events\/:id\/agenda\/circular-announcement$/, null],
  [/^\/(roles|user|committees|terms|memberships)(\/|$)/, 'nutzer'],
  [
    /^\/(folders|root|tree|breadcrumbs|file-breadcrumbs|period|files|download|search|info|minutes)(\/|$)/,
    'inhalte',
  ],
  [/^\/events(\/|$)/, 'inhalte'],
  [/^\/audit(\.csv)?(\/|$)/, 'protokoll'],
];

const PREFIX = '/api/v1';

/** One's own answer to an invitation: a person's, whatever area it sits in. */
const isOwnAttendance = (method: string, path: string) =>
  method === 'PUT' && path === '/events/:id/attendance';

/** The scope a key needs for this route, or null when no key may call it. */
export function scopeForRoute(method: string, url: string): ApiKeyScope | null {
  if (!url.startsWith(`${PREFIX}/`)) return null;
  const path = url.slice(PREFIX.length);
  if (isOwnAttendance(method, path)) return null;
  const area = RULES.find(([pattern]) => pattern.test(path))?.[1] ?? null;
  if (!area) return null;
  const read = method === 'GET' || method === 'HEAD';
  if (area === 'protokoll') return read ? 'protokoll:lesen' : null;
  return `${area}:${read ? 'lesen' : 'schreiben'}`;
}

/** Whether the request's principal may call this route: people always, keys within their scopes. */
export function keyMayCall(principal: Pick<Principal, 'apiKey'>, method: string, url: string): boolean {
  if (!principal.apiKey) return true;
  const scope = scopeForRoute(method, url);
  return scope !== null && principal.apiKey.scopes.includes(scope);
}

/** Only a Super-Admin in person issues and revokes keys: a key can carry rights over every account. */
export const mayManageApiKeys = (principal: Pick<Principal, 'isSuperAdmin' | 'apiKey'>) =>
  principal.isSuperAdmin && !principal.apiKey;

type NamedRole = { readonly name: string };

/**
 * A write to accounts, as the key rule sees it: the roles the account holds before the write (none
 * for a new one) and the roles it grants or revokes.
 */
export interface AccountWrite {
  targetRoles: readonly NamedRole[];
  changedRoles: readonly NamedRole[];
}

/**
 * Decision 146: a key acts with its issuer's rights narrowed by its scopes, and no scope reaches
 * what only a Super-Admin may do to accounts. A key never grants, keeps or removes Admin or
 * Super-Admin and never writes to an account that holds one of them: no change of name or e-mail
 * (a reset link to a new address takes the account over), no invitation, no deletion, no
 * second-factor reset. People are judged by users.policy.ts alone.
 */
export const keyMayWriteAccount = (principal: Pick<Principal, 'apiKey'>, write: AccountWrite): boolean =>
  !principal.apiKey || (!write.targetRoles.some(isAdminRole) && !write.changedRoles.some(isAdminRole));

/**
 * Whether the principal acts as a Super-Admin in the account rules (users.policy.ts): a person
 * holding the role; a key never, whoever issued it (decision 146).
 */
export const actsAsSuperAdmin = (principal: Pick<Principal, 'apiKey'>, holdsSuperAdminRole: boolean) =>
  holdsSuperAdminRole && !principal.apiKey;
