import { ROOT_FOLDER_ID } from '@gremienportal/contracts/common';
import { auditRangeBound } from '@gremienportal/contracts/audit';
import {
  RESTORED_SUFFIX,
  TRASH_MESSAGES,
  type TrashItem,
  type TrashKind,
  type TrashListQuery,
  type TrashListResponse,
  type TrashRestoreBody,
  type TrashRestoreResponse,
} from '@gremienportal/contracts/trash';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { DAY } from '../../clock.ts';
import { AppError, forbidden, invalidField, notFound } from '../../errors.ts';
import type { Actor } from '../../plugins/auth.ts';
import { FolderTree } from '../../policies/folders.policy.ts';
import { viewerOf } from '../../policies/principal.ts';
import { mayPurgeTrash } from '../../policies/trash.policy.ts';
import { auditBy, auditOn, recordAudit, type AuditEntry } from '../audit/audit-log.service.ts';
import { loadFolders, lockFolderTree } from '../../db/document-records.ts';
import { deleteReleasedObjects } from '../../storage/released-objects.ts';
import { sameTitle } from '../explorer/explorer.service.ts';
import { assertWritable } from '../folders/folders.service.ts';
import * as repo from './trash.repository.ts';
import { restoreSnapshot, type TrashSnapshot } from './trash.snapshot.ts';

type TrashContext = Pick<AppContext, 'db' | 'clock' | 'config' | 'logger' | 'storage'>;

const PURGE_ACTIONS = ['trash.purged', 'trash.expired'] as const;

/** Longest title the tables hold; a suffix never pushes a title past it. */
const MAX_TITLE = 255;

/** `base`, else `base (wiederhergestellt)`, else `base (wiederhergestellt 2)` … whichever is free. */
export function freeTitle(base: string, taken: (title: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 1; ; n += 1) {
    const suffix = n === 1 ? RESTORED_SUFFIX : `${RESTORED_SUFFIX.slice(0, -1)} ${n})`;
    const candidate = `${base.slice(0, MAX_TITLE - suffix.length).trimEnd()}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/** Runs a Papierkorb change under the folder-tree lock: restores and purges of one item never overlap. */
async function locked<T>(ctx: TrashContext, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    await lockFolderTree(trx, ctx.db.dialect);
    return work(trx);
  });
}

/**
 * An item that is not in the Papierkorb: a 409 when it was there and someone else was quicker
 * (restored: the object lives again; purged: the audit says so), otherwise the 404 of anything
 * unknown.
 */
async function missingItem(trx: Transaction<Database>, kind: TrashKind, objectId: number): Promise<AppError> {
  const table = kind === 'file' ? 'files' : kind === 'folder' ? 'folders' : 'events';
  const live = await trx.selectFrom(table).select('id').where('id', '=', objectId).executeTakeFirst();
  const purged = await trx
    .selectFrom('audit_log')
    .select('id')
    .where('object_type', '=', kind)
    .where('object_id', '=', objectId)
    .where('action', 'in', [...PURGE_ACTIONS])
    .executeTakeFirst();
  return live || purged ? new AppError('conflict', TRASH_MESSAGES.gone) : notFound();
}

const expiresAt = (deletedAt: string, days: number) =>
  new Date(new Date(deletedAt).getTime() + days * DAY).toISOString();

/** Removes items for good in the open transaction; returns the keys to delete after the commit. */
async function purgeRows(
  ctx: TrashContext,
  trx: Transaction<Database>,
  rows: readonly Pick<
    repo.TrashRow,
    'id' | 'kind' | 'object_id' | 'title' | 'size_bytes' | 'file_count' | 'folder_count'
  >[],
  audit: Pick<AuditEntry, 'actor' | 'ip'>,
  action: (typeof PURGE_ACTIONS)[number],
  details: Record<string, unknown> = {},
): Promise<string[]> {
  const keys: string[] = [];
  for (const row of rows) {
    keys.push(...(await repo.deleteTrashItem(trx, row.id)));
    await recordAudit(trx, ctx.clock, {
      ...audit,
      action,
      objectType: row.kind,
      objectId: row.object_id,
      objectLabel: row.title,
      details: {
        ...details,
        size_bytes: Number(row.size_bytes),
        files: row.file_count,
        folders: row.folder_count,
      },
    });
  }
  return keys;
}

export function trashService(ctx: TrashContext) {
  const db = () => ctx.db.kysely;

  async function purgeLater(keys: readonly string[]) {
    await deleteReleasedObjects(ctx, keys);
  }

  return {
    async list(actor: Actor, query: TrashListQuery): Promise<TrashListResponse> {
      const tree = new FolderTree(await loadFolders(db()), viewerOf(actor.principal));
      const result = await repo.listTrashItems(
        db(),
        {
          ...(query.type ? { kind: query.type } : {}),
          ...(query.deleted_by !== undefined ? { deletedBy: query.deleted_by } : {}),
          fromIso: query.from ? auditRangeBound(query.from, 'from') : null,
          toIso: query.to ? auditRangeBound(query.to, 'to') : null,
        },
        query.page,
        query.per_page,
      );
      const data: TrashItem[] = result.rows.map((row) => ({
        id: row.id,
        type: row.kind,
        object_id: row.object_id,
        title: row.title,
        former_path: row.former_path,
        former_folder_id: row.former_parent_id,
        needs_target:
          row.kind !== 'event' && (row.former_parent_id === null || !tree.byId.has(row.former_parent_id)),
        deleted_at: row.deleted_at,
        deleted_by:
          row.deleted_by_label === null ? null : { id: row.deleted_by, label: row.deleted_by_label },
        size_bytes: row.size_bytes,
        files: row.file_count,
        folders: row.folder_count,
        expires_at: expiresAt(row.deleted_at, ctx.config.TRASH_DAYS),
      }));
      return {
        data,
        meta: {
          total: result.total,
          page: query.page,
          per_page: query.per_page,
          all: result.all,
          deleters: result.deleters,
          may_purge: mayPurgeTrash(actor.principal),
        },
      };
    },

    /**
     * Puts an item back where it was with its roles (the roles that still exist). When its folder
     * is gone or itself in the Papierkorb, `folder_id` says where; a title taken there by now gets
     * " (wiederhergestellt)".
     */
    async restore(
      actor: Actor,
      kind: TrashKind,
      objectId: number,
      body: TrashRestoreBody,
    ): Promise<TrashRestoreResponse['data']> {
      return locked(ctx, async (trx) => {
        const item = await repo.findTrashItem(trx, kind, objectId);
        if (!item) throw await missingItem(trx, kind, objectId);
        const snapshot = JSON.parse(item.snapshot) as TrashSnapshot;
        const existingRoles = await repo.existingRoleIds(trx);
        let result: TrashRestoreResponse['data'];
        if (kind === 'event') {
          if (body.folder_id !== undefined) throw invalidField('folder_id', TRASH_MESSAGES.noTargetForEvents);
          // Calendars hold the cancellation (SEQUENCE + 1) since the deletion: the event comes back
          // above it, or they would keep it cancelled (decision 130).
          const raised = {
            ...snapshot,
            events: snapshot.events.map((event) => ({ ...event, sequence: event.sequence + 2 })),
          };
          await restoreSnapshot(trx, raised, { existingRoles });
          result = { type: kind, id: objectId, title: item.title, folder_id: null, renamed: false };
        } else {
          const tree = new FolderTree(await loadFolders(trx), viewerOf(actor.principal));
          const targetId = body.folder_id ?? item.former_parent_id;
          const target = targetId === null ? undefined : tree.byId.get(targetId);
          if (!target) {
            throw invalidField(
              'folder_id',
              body.folder_id === undefined ? TRASH_MESSAGES.targetRequired : TRASH_MESSAGES.targetNotFound,
            );
          }
          assertWritable(tree, target.id);
          let title: string;
          if (kind === 'folder') {
            const base = snapshot.folders[0]!.title;
            title = freeTitle(base, (t) =>
              tree.allChildren(target.id).some((child) => sameTitle(child.title, t)),
            );
          } else {
            if (target.id === ROOT_FOLDER_ID) throw invalidField('folder_id', TRASH_MESSAGES.noFilesInRoot);
            const file = snapshot.files[0]!;
            const siblings = await trx
              .selectFrom('files')
              .select('title')
              .where('folder_id', '=', target.id)
              .where('format', '=', file.format)
              .execute();
            title = freeTitle(file.title, (t) => siblings.some((sibling) => sameTitle(sibling.title, t)));
          }
          await restoreSnapshot(trx, snapshot, {
            parentId: target.id,
            parentBreadcrumb: target.breadcrumb,
            title,
            existingRoles,
          });
          const base = kind === 'folder' ? snapshot.folders[0]!.title : snapshot.files[0]!.title;
          result = { type: kind, id: objectId, title, folder_id: target.id, renamed: title !== base };
        }
        await repo.deleteTrashItem(trx, item.id);
        await recordAudit(trx, ctx.clock, {
          ...auditBy(actor),
          action: 'trash.restored',
          objectType: kind,
          objectId,
          objectLabel: item.title,
          details: {
            ...(result.folder_id !== null ? { folder_id: result.folder_id } : {}),
            ...(result.folder_id !== item.former_parent_id ? { elsewhere: true } : {}),
            ...(result.renamed ? { title: result.title } : {}),
            files: item.file_count,
            folders: item.folder_count,
          },
        });
        return result;
      });
    },

    /** Removes one item for good (Super-Admin); its stored content goes after the commit. */
    async purge(actor: Actor, kind: TrashKind, objectId: number): Promise<void> {
      if (!mayPurgeTrash(actor.principal)) throw forbidden();
      const keys = await locked(ctx, async (trx) => {
        const item = await repo.findTrashItem(trx, kind, objectId);
        if (!item) throw await missingItem(trx, kind, objectId);
        return purgeRows(ctx, trx, [item], auditBy(actor), 'trash.purged');
      });
      await purgeLater(keys);
    },

    /** Empties the Papierkorb (Super-Admin): one audit entry per item and one for the whole. */
    async empty(actor: Actor): Promise<number> {
      if (!mayPurgeTrash(actor.principal)) throw forbidden();
      const { keys, count } = await locked(ctx, async (trx) => {
        const rows = await repo.allTrashItems(trx);
        const removed = await purgeRows(ctx, trx, rows, auditBy(actor), 'trash.purged', { emptied: true });
        await recordAudit(trx, ctx.clock, {
          ...auditOn(actor, 'trash', null, 'Papierkorb'),
          action: 'trash.emptied',
          details: { items: rows.length },
        });
        return { keys: removed, count: rows.length };
      });
      await purgeLater(keys);
      return count;
    },

    /**
     * The daily maintenance: items older than TRASH_DAYS go for good, in small locked batches;
     * an item another instance removed first is simply not found again, so each is removed and
     * audited exactly once.
     */
    async purgeExpired(): Promise<number> {
      const cutoff = new Date(ctx.clock.now().getTime() - ctx.config.TRASH_DAYS * DAY).toISOString();
      let removed = 0;
      for (;;) {
        const keys = await locked(ctx, async (trx) => {
          // Read under the lock: what another instance removed first is no longer there.
          const rows = await repo.expiredTrashItems(trx, cutoff, 20);
          removed += rows.length;
          return rows.length === 0
            ? null
            : purgeRows(ctx, trx, rows, { actor: null, ip: null }, 'trash.expired', {
                days: ctx.config.TRASH_DAYS,
              });
        });
        if (keys === null) break;
        await purgeLater(keys);
      }
      if (removed > 0) ctx.logger.info({ removed }, 'Papierkorb: abgelaufene Einträge endgültig gelöscht');
      return removed;
    },
  };
}
