import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/*
 * The tables that give users, folders, files and events their roles: each links the object's id
 * (its own column) with a `role_id`. Reading and replacing the links is the same for all of them.
 */
const OBJECT_COLUMN = {
  user_roles: 'user_id',
  folder_roles: 'folder_id',
  file_roles: 'file_id',
  event_roles: 'event_id',
} as const;

export type RoleLinkTable = keyof typeof OBJECT_COLUMN;

type Executor = Kysely<Database> | Transaction<Database>;
type Role = { id: number; name: string };

/** The schema as these helpers see it: any link table, its columns named by `OBJECT_COLUMN`. */
type LinkDatabase = Pick<Database, 'roles'> & Record<RoleLinkTable, Record<string, number>>;
const linksIn = (db: Executor) => db as unknown as Kysely<LinkDatabase>;

/** The roles of each object, by the object's id, each list ordered by role id. */
export async function rolesByObject(
  db: Executor,
  table: RoleLinkTable,
  objectIds: readonly number[],
): Promise<Map<number, Role[]>> {
  const byObject = new Map<number, Role[]>();
  if (objectIds.length === 0) return byObject;
  const objectColumn = `${table}.${OBJECT_COLUMN[table]}` as const;
  const rows = await linksIn(db)
    .selectFrom(table)
    .innerJoin('roles', 'roles.id', `${table}.role_id`)
    .select([`${objectColumn} as object_id`, 'roles.id', 'roles.name'])
    .where(objectColumn, 'in', objectIds)
    .orderBy('roles.id')
    .execute();
  for (const row of rows) {
    const list = byObject.get(row.object_id) ?? [];
    list.push({ id: row.id, name: row.name });
    byObject.set(row.object_id, list);
  }
  return byObject;
}

/**
 * Gives the object exactly these roles: its links are deleted and written anew. (A user's links
 * are replaced differently, keeping the ones that stay: see users.repository.ts.)
 */
export async function replaceRoleLinks(
  db: Executor,
  table: Exclude<RoleLinkTable, 'user_roles'>,
  objectId: number,
  roleIds: readonly number[],
): Promise<void> {
  const objectColumn = OBJECT_COLUMN[table];
  const links = linksIn(db);
  await links.deleteFrom(table).where(objectColumn, '=', objectId).execute();
  if (roleIds.length === 0) return;
  await links
    .insertInto(table)
    .values(roleIds.map((role_id) => ({ [objectColumn]: objectId, role_id })))
    .execute();
}

/** A row of an object joined with one of its roles; the role is null when it has none (left join). */
type RowWithRole = { id: number; role_id: number | null; role_name: string | null };
type WithRoles<Row> = Omit<Row, 'role_id' | 'role_name'> & { roles: Role[] };

/**
 * Folds rows of objects joined with their roles (one row per object and role) into one object per
 * id with its `roles`, in the order of the rows.
 */
export function groupRoles<Row extends RowWithRole>(rows: readonly Row[]): WithRoles<Row>[] {
  const byId = new Map<number, WithRoles<Row>>();
  for (const { role_id, role_name, ...object } of rows) {
    let grouped = byId.get(object.id);
    if (!grouped) {
      grouped = { ...object, roles: [] };
      byId.set(object.id, grouped);
    }
    if (role_id !== null && role_name !== null) grouped.roles.push({ id: role_id, name: role_name });
  }
  return [...byId.values()];
}
