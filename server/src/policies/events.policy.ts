import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { sharesRole, type Viewer } from './principal.ts';
import { roleFilter } from './role-filter.ts';
import { holdsAnyRole, isAdminRole } from './users.policy.ts';

/** A condition on `events` rows, used in the query that finds them. */
export type EventRowFilter = (eb: ExpressionBuilder<Database, 'events'>) => Expression<SqlBool>;

/** product.md P5: Admins see every event, everybody else those sharing a role with them. */
export const canSeeEvent = (viewer: Viewer, event: { roles: readonly { id: number }[] }): boolean =>
  viewer.isAdmin || sharesRole(event.roles, viewer);

/**
 * `canSeeEvent` as SQL, for the query that finds events, so a hidden event and a missing one
 * run the same queries; undefined for Admins, who see every event.
 */
export function eventFilter(viewer: Viewer): EventRowFilter | undefined {
  return roleFilter<'events'>(viewer, (eb, roleIds) =>
    eb.exists(
      eb
        .selectFrom('event_roles')
        .select('event_roles.event_id')
        .whereRef('event_roles.event_id', '=', 'events.id')
        .where('event_roles.role_id', 'in', roleIds),
    ),
  );
}

/**
 * Who an event invites (product.md P5, decision 130): an active account (one that has set a
 * password) holding one of the event's roles. Administrators see every event, but are invited
 * only through such a role.
 */
export const isInvitee = (
  event: { roles: readonly { id: number }[] },
  user: { active: boolean; roles: readonly { id: number }[] },
): boolean =>
  user.active &&
  sharesRole(event.roles, { isAdmin: false, roleIds: new Set(user.roles.map((role) => role.id)) });

/** `isInvitee` as SQL on `users`, given the ids of the event's roles; nothing for an event without roles. */
export function inviteeFilter(
  eventRoleIds: readonly number[],
): (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool> {
  const holdsEventRole = holdsAnyRole(eventRoleIds);
  return (eb) => eb.and([eb('users.password_hash', 'is not', null), holdsEventRole(eb)]);
}

/**
 * The event's roles whose holders see it through the role alone: every role but Admin and
 * Super-Admin, whose holders see everything (product.md P5).
 */
export const memberRolesOf = <R extends { name: string }>(roles: readonly R[]): R[] =>
  roles.filter((role) => !isAdminRole(role));
