import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Viewer } from './principal.ts';

/**
 * `sharesRole` as SQL for objects that carry roles (events, files): undefined for Admins, who see
 * every such object; nothing for a viewer without roles; otherwise the rows `linkedTo` finds, given
 * the viewer's role ids (an EXISTS over the object's role links).
 */
export function roleFilter<TB extends keyof Database>(
  viewer: Viewer,
  linkedTo: (eb: ExpressionBuilder<Database, TB>, roleIds: number[]) => Expression<SqlBool>,
): ((eb: ExpressionBuilder<Database, TB>) => Expression<SqlBool>) | undefined {
  if (viewer.isAdmin) return undefined;
  const roleIds = [...viewer.roleIds];
  return (eb) => (roleIds.length === 0 ? sql<SqlBool>`1 = 0` : linkedTo(eb, roleIds));
}
