import type { Kysely, Transaction } from 'kysely';
import type { Role } from '@gremienportal/contracts/common';
import type { Database } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Every role, by id: the one query other features reach through the roles service. */
export function allRoles(db: Executor): Promise<Role[]> {
  return db.selectFrom('roles').select(['id', 'name']).orderBy('id').execute();
}
