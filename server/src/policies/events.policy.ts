import { type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { sharesRole, type Viewer } from './principal.ts';
import { roleFilter } from './role-filter.ts';

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
