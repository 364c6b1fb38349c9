import type { Role } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';
import * as repo from './roles.repository.ts';

/** Every role; any signed-in user may know them (the forms offer them as choices). */
export function listRoles(ctx: AppContext): Promise<Role[]> {
  return repo.listRoles(ctx.db.kysely);
}
