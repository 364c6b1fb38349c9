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
import type { AppContext } from '../../context.ts';
import type { AuditRow } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import type { Principal } from '../../policies/principal.ts';
import { seeingReason, seesSubject, type VisibilitySubject } from '../../policies/audit.policy.ts';
import { viewerOfRoles } from '../../policies/principal.ts';
import { eventById } from '../events/events.service.ts';
import { fileById } from '../files/files.service.ts';
import { loadFolders } from '../../db/document-records.ts';
import { parseDetails } from './audit-log.service.ts';
import { auditCsvHeader, auditCsvRow } from './audit.csv.ts';
import {
  countEntries,
  entriesAfter,
  listEntries,
  loginsOf,
  usersWithRoles,
  type AuditFilter,
} from './audit.repository.ts';

/** Rows per export batch: small enough for any memory, large enough for few round trips. */
export const EXPORT_BATCH_SIZE = 500;

export function toAuditEntry(row: AuditRow): AuditEntry {
  const details = parseDetails(row.details, true);
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

export function auditService(ctx: AppContext) {
  const db = ctx.db.kysely;

  async function page(filter: AuditFilter, paging: PageQuery): Promise<AuditListResponse> {
    const [total, rows] = await Promise.all([
      countEntries(db, filter),
      listEntries(db, filter, { limit: paging.per_page, offset: (paging.page - 1) * paging.per_page }),
    ]);
    return { data: rows.map(toAuditEntry), meta: { total, page: paging.page, per_page: paging.per_page } };
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
      return `aktivitaeten-${berlinDate(ctx.clock.now())}.csv`;
    },

    /** Who viewed or downloaded one file or event file, newest first (also after deletion). */
    accesses(type: AccessObjectType, id: number, paging: PageQuery): Promise<AuditListResponse> {
      return page({ actions: ACCESS_ACTIONS[type], objectType: type, objectId: id }, paging);
    },

    /** The accounts that can see a file, folder or event now, derived from their roles. */
    async visibleTo(type: VisibleToType, id: number): Promise<VisibleUser[]> {
      let subject: VisibilitySubject;
      if (type === 'event') {
        const event = await eventById(db, id);
        if (!event) throw notFound();
        subject = { type, roles: event.roles };
      } else if (type === 'folder') {
        const folders = await loadFolders(db);
        if (!folders.some((folder) => folder.id === id)) throw notFound();
        subject = { type, id, folders };
      } else {
        const file = await fileById(db, id);
        if (!file) throw notFound();
        subject = { type, file, folders: await loadFolders(db) };
      }
      const sees = seesSubject(subject);
      const users = await usersWithRoles(db);
      return users
        .map((user) => ({ user, viewer: viewerOfRoles(user.roles) }))
        .filter(({ viewer }) => sees(viewer))
        .map(({ user, viewer }) => ({
          id: user.id,
          title: user.title,
          firstname: user.firstname,
          lastname: user.lastname,
          email: user.email,
          roles: user.roles.map((role) => role.name),
          reason: seeingReason(viewer),
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
