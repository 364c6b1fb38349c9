import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { AuditRow, Database } from '../../db/schema.ts';
import type { ListedMember } from '../../db/member-lists.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** The list's and the export's filters, already checked and turned into instants. */
export interface AuditFilter {
  actorId?: number;
  /** Text in the actor's label ("Vorname Nachname <mail>"). */
  text?: string;
  actions?: readonly string[];
  objectType?: string;
  objectId?: number;
  /** Inclusive lower bound, ISO UTC. */
  fromIso?: string;
  /** Exclusive upper bound, ISO UTC. */
  beforeIso?: string;
}

const capitalizeWords = (text: string) =>
  text.replace(/(^|[\s\-.<@])(\p{L})/gu, (_, a, b) => a + b.toUpperCase());
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** Whether the filter narrows anything at all. */
const narrows = (filter: AuditFilter) =>
  filter.actorId !== undefined ||
  (filter.actions !== undefined && filter.actions.length > 0) ||
  filter.objectType !== undefined ||
  filter.objectId !== undefined ||
  filter.fromIso !== undefined ||
  filter.beforeIso !== undefined ||
  Boolean(filter.text);

function matches(filter: AuditFilter) {
  return (eb: ExpressionBuilder<Database, 'audit_log'>) => {
    const conditions = [];
    if (filter.actorId !== undefined) conditions.push(eb('actor_id', '=', filter.actorId));
    if (filter.actions && filter.actions.length > 0) conditions.push(eb('action', 'in', [...filter.actions]));
    if (filter.objectType !== undefined) conditions.push(eb('object_type', '=', filter.objectType));
    if (filter.objectId !== undefined) conditions.push(eb('object_id', '=', filter.objectId));
    // ISO 8601 UTC text sorts and compares like the instants it names (decision 001).
    if (filter.fromIso !== undefined) conditions.push(eb('at', '>=', filter.fromIso));
    if (filter.beforeIso !== undefined) conditions.push(eb('at', '<', filter.beforeIso));
    if (filter.text) {
      const lowered = filter.text.toLowerCase();
      // Dialects: SQLite's LIKE and lower() ignore case for ASCII letters only, and PostgreSQL's
      // LIKE not at all; besides the lowered text, the usual spellings of a name ("öztürk",
      // "Öztürk", "ÖZTÜRK") are tried as well. The explicit ESCAPE works in both.
      const spellings = new Set([filter.text, lowered, lowered.toUpperCase(), capitalizeWords(lowered)]);
      conditions.push(
        eb.or([
          sql<boolean>`lower(actor_label) like ${`%${escapeLike(lowered)}%`} escape '\\'`,
          ...[...spellings].map(
            (spelling) => sql<boolean>`actor_label like ${`%${escapeLike(spelling)}%`} escape '\\'`,
          ),
        ]),
      );
    }
    return eb.and(conditions);
  };
}

export async function countEntries(db: Executor, filter: AuditFilter): Promise<number> {
  const all = db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number | string>().as('n'));
  // Without a condition, not even the `1 = 1` of an empty `and`: SQLite then counts the entries
  // of the smallest index's pages without reading one row (decision 186).
  const row = await (narrows(filter) ? all.where(matches(filter)) : all).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Newest first; ties on the time fall back to the insertion order. */
export async function listEntries(
  db: Executor,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<AuditRow[]> {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where(matches(filter))
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * One batch of the export, newest first, strictly after the last row of the previous batch
 * (keyset paging: each batch is a short indexed query, however far into the log it is).
 */
export async function entriesAfter(
  db: Executor,
  filter: AuditFilter,
  after: { at: string; id: number } | null,
  limit: number,
): Promise<AuditRow[]> {
  let query = db.selectFrom('audit_log').selectAll().where(matches(filter));
  if (after) {
    // `at <= ? and (at < ? or id < ?)`, not the equal `at < ? or (at = ? and id < ?)`: SQLite
    // does not search an index by an OR and scanned every newer entry for each batch, so the
    // export of a long log grew with the square of its length (decision 186).
    query = query
      .where('at', '<=', after.at)
      .where((eb) => eb.or([eb('at', '<', after.at), eb('id', '<', after.id)]));
  }
  return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** Entries with one of `actions` that name this account as their object. */
const entriesAboutUser = (db: Executor, userId: number, actions: readonly string[]) =>
  db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', 'in', [...actions])
    .where('object_type', '=', 'user')
    .where('object_id', '=', userId);

/** Sign-ins and failed sign-ins of one account (both name it as their object). */
export async function loginsOf(
  db: Executor,
  userId: number,
  actions: readonly string[],
  limit: number,
): Promise<AuditRow[]> {
  return entriesAboutUser(db, userId, actions)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Entries with one of `actions` about one account within `[fromIso, toIso]`, recorded by anybody
 * but the account itself (a null actor, the operator's command line, counts as somebody else).
 */
export async function entriesAboutUserByOthers(
  db: Executor,
  userId: number,
  actions: readonly string[],
  fromIso: string,
  toIso: string,
): Promise<AuditRow[]> {
  return entriesAboutUser(db, userId, actions)
    .where('at', '>=', fromIso)
    .where('at', '<=', toIso)
    .where((eb) => eb.or([eb('actor_id', 'is', null), eb('actor_id', '!=', userId)]))
    .orderBy('at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Who may see an object now (read-only look at the role tables)

export type UserWithRoles = ListedMember;

export async function usersWithRoles(db: Executor): Promise<UserWithRoles[]> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'title', 'firstname', 'lastname', 'email'])
    .orderBy('lastname')
    .orderBy('firstname')
    .orderBy('id')
    .execute();
  const links = await db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'roles.id', 'roles.name'])
    .orderBy('roles.id')
    .execute();
  const byUser = new Map<number, { id: number; name: string }[]>();
  for (const link of links) {
    const list = byUser.get(link.user_id) ?? [];
    list.push({ id: link.id, name: link.name });
    byUser.set(link.user_id, list);
  }
  return users.map((user) => ({ ...user, roles: byUser.get(user.id) ?? [] }));
}
