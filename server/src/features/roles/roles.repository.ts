import type { Kysely } from 'kysely';
import type { Role } from '@gremienportal/contracts/common';
import type { Database } from '../../db/schema.ts';

export function listRoles(db: Kysely<Database>): Promise<Role[]> {
  return db.selectFrom('roles').select(['id', 'name']).orderBy('id').execute();
}
