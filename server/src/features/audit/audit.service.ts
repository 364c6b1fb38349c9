import {
  ACCESS_ACTIONS,
  auditActionLabel,
  auditRangeBound,
  berlinDate,
  LOGIN_ACTIONS,
  MY_LOGINS_LIMIT,
  type AccessObjectType,
  type AuditEntry,
  type AuditExportQuery,
  type AuditListQuery,
  type AuditListResponse,
  type MyLogin,
  type PageQuery,
  type VisibleToType,
  type VisibleUser,
} from '@gremienportal/contracts/audit';
import { isAdmin } from '@gremienportal/contracts/common';
import type { AppContext } from '../../context.ts';
import type { AuditRow } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../../plugins/auth.ts';
import { canSee as canSeeEvent } from '../events/events.service.ts';
import { FolderTree, viewerOf } from '../files/files.access.ts';
import { auditCsvHeader, auditCsvRow } from './audit.csv.ts';
import {
  countEntries,
  entriesAfter,
  eventRoles,
  fileWithRoles,
  foldersWithRoles,
  listEntries,
  loginsOf,
  usersWithRoles,
  type AuditFilter,
  type UserWithRoles,
} from './audit.repository.ts';

/** Rows per export batch: small enough for any memory, large enough for few round trips. */
export const EXPORT_BATCH_SIZE = 500;

function parseDetails(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  } catch {
    return { text };
  }
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  const details = parseDetails(row.details);
  return {
    id: row.id,
    at: row.at,
    actor_id: row.actor_id,
    actor_label: row.actor_label,
    action: row.action,
    action_label: auditActionLabel(row.action, details),
    object_type: row.object_type,
    object_id: row.object_id,
    object_label: row.object_label,
    details,
    ip: row.ip,
  };
}

/** The checked query as repository filter; `from` and `to` become instants (Berlin days). */
export function filterOf(query: AuditExportQuery): AuditFilter {
  return {
    actorId: query.actor_id,
    text: query.q,
    actions: query.action,
    objectType: query.object_type,
    objectId: query.object_id,
    fromIso: query.from ? (auditRangeBound(query.from, 'from') ?? undefined) : undefined,
    beforeIso: query.to ? (auditRangeBound(query.to, 'to') ?? undefined) : undefined,
  };
}

/** Admins and Super-Admins see everything (DESIGN 4.9), whatever the object's roles. */
const userIsAdmin = (user: UserWithRoles) => isAdmin(user.roles.map((role) => role.name));

/** A user as the visibility rules of other features take it. */
function principalOfUser(user: UserWithRoles): Principal {
  const roles = user.roles.map((role) => role.name);
  return {
    id: user.id,
    sessionId: 0,
    email: user.email,
    title: user.title,
    firstname: user.firstname,
    lastname: user.lastname,
    roles,
    roleIds: user.roles.map((role) => role.id),
    isAdmin: isAdmin(roles),
    isSuperAdmin: roles.includes('Super-Admin'),
  };
}

export function auditService(ctx: AppContext) {
  const db = ctx.db.kysely;

  async function page(filter: AuditFilter, paging: PageQuery): Promise<AuditListResponse> {
    const [total, rows] = await Promise.all([
      countEntries(db, filter),
      listEntries(db, filter, { limit: paging.per_page, offset: (paging.page - 1) * paging.per_page }),
    ]);
    return { data: rows.map(toAuditEntry), meta: { total, page: paging.page, per_page: paging.per_page } };
  }

  /**
   * The files feature's visibility rules (DESIGN 4.9) for every user: one folder tree per set of
   * roles, as few as there are role combinations.
   */
  async function folderTrees() {
    const folders = await foldersWithRoles(db);
    const trees = new Map<string, FolderTree>();
    return {
      exists: (id: number) => folders.some((folder) => folder.id === id),
      treeOf(user: UserWithRoles): FolderTree {
        const principal = principalOfUser(user);
        const key = principal.roleIds.join(',');
        let tree = trees.get(key);
        if (!tree) {
          tree = new FolderTree(folders, viewerOf(principal));
          trees.set(key, tree);
        }
        return tree;
      },
    };
  }

  return {
    list(query: AuditListQuery): Promise<AuditListResponse> {
      return page(filterOf(query), query);
    },

    /**
     * The CSV export as text chunks: the header with BOM, then one chunk per batch, so memory
     * stays flat however many rows match.
     */
    async *exportCsv(query: AuditExportQuery): AsyncGenerator<string> {
      const filter = filterOf(query);
      yield auditCsvHeader();
      let after: { at: string; id: number } | null = null;
      for (;;) {
        const rows = await entriesAfter(db, filter, after, EXPORT_BATCH_SIZE);
        if (rows.length === 0) return;
        yield rows.map((row) => auditCsvRow(toAuditEntry(row))).join('');
        const last = rows.at(-1)!;
        after = { at: last.at, id: last.id };
        if (rows.length < EXPORT_BATCH_SIZE) return;
      }
    },

    exportFileName(): string {
      return `protokoll-${berlinDate(ctx.clock.now())}.csv`;
    },

    /** Who viewed or downloaded one file or event file, newest first (also after deletion). */
    accesses(type: AccessObjectType, id: number, paging: PageQuery): Promise<AuditListResponse> {
      return page({ actions: ACCESS_ACTIONS[type], objectType: type, objectId: id }, paging);
    },

    /** The accounts that can see a file, folder or event now, derived from their roles. */
    async visibleTo(type: VisibleToType, id: number): Promise<VisibleUser[]> {
      let rule: (user: UserWithRoles) => boolean;
      if (type === 'event') {
        const roles = await eventRoles(db, id);
        if (!roles) throw notFound();
        rule = (user) => canSeeEvent(principalOfUser(user), { roles });
      } else if (type === 'folder') {
        const trees = await folderTrees();
        if (!trees.exists(id)) throw notFound();
        rule = (user) => trees.treeOf(user).visible.has(id);
      } else {
        const file = await fileWithRoles(db, id);
        if (!file) throw notFound();
        const trees = await folderTrees();
        rule = (user) => trees.treeOf(user).canSeeFile(file);
      }
      const users = await usersWithRoles(db);
      return users
        .map((user) => ({ user, admin: userIsAdmin(user) }))
        .filter(({ user, admin }) => admin || rule(user))
        .map(({ user, admin }) => ({
          id: user.id,
          title: user.title,
          firstname: user.firstname,
          lastname: user.lastname,
          email: user.email,
          roles: user.roles.map((role) => role.name),
          reason: admin ? ('admin' as const) : ('roles' as const),
        }));
    },

    /** The caller's own last sign-ins, failed ones included. */
    async myLogins(principal: Principal): Promise<MyLogin[]> {
      const rows = await loginsOf(db, principal.id, LOGIN_ACTIONS, MY_LOGINS_LIMIT);
      return rows.map((row) => ({
        id: row.id,
        at: row.at,
        action: row.action,
        action_label: auditActionLabel(row.action, parseDetails(row.details)),
        ip: row.ip,
      }));
    },
  };
}
