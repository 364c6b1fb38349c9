import { isAdmin } from '@gremienportal/contracts/common';

/** The signed-in user of a request, as the auth plugin resolves it (roles read fresh per request). */
export interface Principal {
  id: number;
  /** The sign-in session; null for an API-Schlüssel, which has none. */
  sessionId: number | null;
  /**
   * Set when the request came with an API-Schlüssel (decision 136): it acts as its issuer (`id`…),
   * narrowed to `scopes` (api-key.policy.ts), and is named in every audit entry it causes.
   */
  apiKey?: { id: number; name: string; scopes: readonly string[] };
  email: string;
  title: string;
  firstname: string;
  lastname: string;
  roles: string[];
  roleIds: number[];
  isAdmin: boolean;
  isSuperAdmin: boolean;
  /** A TOTP seed or a passkey exists (`users.two_factor_enabled`). */
  twoFactorEnabled: boolean;
  /** A role requires a second factor and none is set up: only the setup routes answer (decision 126). */
  needsTwoFactorSetup: boolean;
  /** Fellow committee members may see the e-mail address (`users.email_visible_to_committees`, decision 189). */
  emailVisibleToCommittees: boolean;
  /** The user has a committee membership, past or present (decision 189): the account lists them. */
  hasCommitteeMemberships: boolean;
  /**
   * What "neu" starts from (decision 131): content stored after `since` (the account's creation or the
   * last "Alle als gelesen markieren") is new until opened; `version` changes with every read.
   */
  readState: { since: string; version: number };
}

export const SUPER_ADMIN = 'Super-Admin';

/**
 * Who is looking, as every visibility rule takes it (product.md P5): Admins and Super-Admins see
 * everything, anyone else what shares a role with them.
 */
export interface Viewer {
  isAdmin: boolean;
  roleIds: ReadonlySet<number>;
}

/** The two kinds of administrator a set of role names makes (product.md P5, 4.11). */
export const adminKind = (roleNames: readonly string[]) => ({
  isAdmin: isAdmin(roleNames),
  isSuperAdmin: roleNames.includes(SUPER_ADMIN),
});

export const viewerOf = (principal: Pick<Principal, 'isAdmin' | 'roleIds'>): Viewer => ({
  isAdmin: principal.isAdmin,
  roleIds: new Set(principal.roleIds),
});

/** The viewer a user would be, from their roles (mail recipients, "who can see this"). */
export const viewerOfRoles = (roles: readonly { id: number; name: string }[]): Viewer => ({
  isAdmin: adminKind(roles.map((role) => role.name)).isAdmin,
  roleIds: new Set(roles.map((role) => role.id)),
});

/** Viewers with the same key see the same: Admins, or one set of roles. */
export const viewerKey = (viewer: Viewer) =>
  viewer.isAdmin ? 'admin' : [...viewer.roleIds].sort((a, b) => a - b).join(',');

export const sharesRole = (roles: readonly { id: number }[], viewer: Viewer) =>
  roles.some((role) => viewer.roleIds.has(role.id));

/** Routes marked `access: 'admin'` (user administration, audit log) need Admin or Super-Admin. */
export const mayUseAdminRoutes = (principal: Pick<Principal, 'isAdmin'>) => principal.isAdmin;
