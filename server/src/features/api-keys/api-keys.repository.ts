import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Executor = Kysely<Database> | Transaction<Database>;

const COLUMNS = [
  'api_keys.id',
  'api_keys.name',
  'api_keys.scopes',
  'api_keys.created_at',
  'api_keys.expires_at',
  'api_keys.last_used_at',
  'users.firstname',
  'users.lastname',
  'users.email',
] as const;

const withIssuer = (db: Executor) =>
  db.selectFrom('api_keys').innerJoin('users', 'users.id', 'api_keys.user_id').select(COLUMNS);

export type ApiKeyRow = Awaited<ReturnType<ReturnType<typeof withIssuer>['executeTakeFirstOrThrow']>>;

/** Every key, newest first; expired ones too, until someone revokes them. */
export const listKeys = (db: Executor): Promise<ApiKeyRow[]> =>
  withIssuer(db).orderBy('api_keys.created_at', 'desc').orderBy('api_keys.id', 'desc').execute();

export const findKey = (db: Executor, id: number): Promise<ApiKeyRow | undefined> =>
  withIssuer(db).where('api_keys.id', '=', id).executeTakeFirst();

export async function insertKey(
  db: Executor,
  key: {
    userId: number;
    name: string;
    tokenHash: string;
    scopes: readonly string[];
    createdAt: string;
    expiresAt: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('api_keys')
    .values({
      user_id: key.userId,
      name: key.name,
      token_hash: key.tokenHash,
      scopes: key.scopes.join(','),
      created_at: key.createdAt,
      expires_at: key.expiresAt,
      last_used_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const deleteKey = async (db: Executor, id: number): Promise<void> => {
  await db.deleteFrom('api_keys').where('id', '=', id).execute();
};
