import type { Kysely, Transaction } from 'kysely';
import {
  MEETING_MESSAGES,
  type AgendaCheckResponse,
  type AgendaFile,
  type AgendaItem,
  type PutAgendaBody,
} from '@gremienportal/contracts/meetings';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { memberRolesOf } from '../../policies/events.policy.ts';
import { canSeeFile } from '../../policies/files.policy.ts';
import { FolderTree, type FolderNode } from '../../policies/folders.policy.ts';
import { mayUseAdminRoutes, viewerOf, viewerOfRoles, type Viewer } from '../../policies/principal.ts';
import { auditOnEvent, recordAudit } from '../audit/audit-log.service.ts';
import { loadFolders } from '../../db/document-records.ts';
import { megabytes, type ReadCache } from '../explorer/explorer.service.ts';
import {
  deleteAgenda,
  filesByIds,
  insertAgendaItem,
  insertItemFiles,
  loadAgendaItems,
  loadLinkedFiles,
  type AgendaDocument,
  type AgendaItemRow,
  type LinkedFileRow,
} from './agenda.repository.ts';
import { lockEventRow, updateEventRow, type EventRecord, type RoleRow } from '../events/events.service.ts';
import { visibleEvent } from '../events/visible-event.ts';

/*
 * The Tagesordnung of an event (decision 130): items and sub-items, numbered when read,
 * each with documents from the file area that a reader sees only as the files policy lets them.
 */

export interface AgendaEntry {
  id: number;
  parent_id: number | null;
  position: number;
  number: string;
  title: string;
  description: string;
  presenter: string;
  documents: AgendaDocument[];
}

type Executor = Kysely<Database> | Transaction<Database>;
type TreeOf = (viewer: Viewer) => Promise<FolderTree<FolderNode>>;

/** An item in reading order with every live document linked to it, visible or not. */
export interface ReadItem extends Omit<AgendaEntry, 'documents'> {
  files: LinkedFileRow[];
}

/** Main items by position, each followed by its sub-items by position: 1, 2, 2.1, 2.2, 3. */
function inReadingOrder(items: readonly AgendaItemRow[]): Omit<ReadItem, 'files'>[] {
  const children = new Map<number, AgendaItemRow[]>();
  for (const item of items) {
    if (item.parent_id === null) continue;
    const list = children.get(item.parent_id) ?? [];
    list.push(item);
    children.set(item.parent_id, list);
  }
  const result: Omit<ReadItem, 'files'>[] = [];
  const add = (item: AgendaItemRow, number: string) =>
    result.push({
      id: item.id,
      parent_id: item.parent_id,
      position: result.length,
      number,
      title: item.title,
      description: item.description,
      presenter: item.presenter,
    });
  items
    .filter((item) => item.parent_id === null)
    .forEach((main, index) => {
      add(main, String(index + 1));
      (children.get(main.id) ?? []).forEach((sub, subIndex) => add(sub, `${index + 1}.${subIndex + 1}`));
    });
  return result;
}

/** The event's items in reading order, each with every live document linked to it. */
export async function readAgenda(db: Executor, eventId: number): Promise<ReadItem[]> {
  const items = inReadingOrder(await loadAgendaItems(db, eventId));
  const files = await loadLinkedFiles(
    db,
    items.map((item) => item.id),
  );
  return items.map((item) => ({ ...item, files: files.filter((file) => file.item_id === item.id) }));
}

const toDocument = (file: LinkedFileRow): AgendaDocument => ({
  id: file.id,
  title: file.title,
  format: file.format,
  mime_type: file.mime_type,
  storage_key: file.storage_key,
  download_key: file.download_key,
  size_bytes: file.size_bytes,
  updated_at: file.updated_at,
});

/** Names of the roles whose holders could not see the document. */
function unseenBy(
  file: { folder_id: number; roles: readonly { id: number }[] },
  roleTrees: readonly { name: string; tree: FolderTree<FolderNode> }[],
): string[] {
  return roleTrees.filter(({ tree }) => !canSeeFile(tree, file)).map(({ name }) => name);
}

async function treesOfRoles(roles: readonly RoleRow[], treeOf: TreeOf) {
  return Promise.all(
    memberRolesOf(roles).map(async (role) => ({
      name: role.name,
      tree: await treeOf(viewerOfRoles([role])),
    })),
  );
}

/** The agenda of an event as `viewer` may see it: only the documents the files policy shows them. */
export async function visibleAgenda(
  ctx: AppContext,
  viewer: Viewer,
  eventId: number,
): Promise<AgendaEntry[]> {
  const db = ctx.db.kysely;
  const [items, folders] = await Promise.all([readAgenda(db, eventId), loadFolders(db)]);
  const tree = new FolderTree(folders, viewer);
  return items.map(({ files, ...item }) => ({
    ...item,
    documents: files.filter((file) => canSeeFile(tree, file)).map(toDocument),
  }));
}

export function agendaService(ctx: AppContext, cache: ReadCache) {
  const db = ctx.db.kysely;
  const treeOf: TreeOf = (viewer) => cache.folderTree(viewer);

  /** The agenda as the principal sees it; admins learn per document which roles miss it. */
  async function agendaFor(principal: Principal, event: EventRecord): Promise<AgendaItem[]> {
    const viewer = viewerOf(principal);
    const [items, tree, roleTrees] = await Promise.all([
      readAgenda(db, event.id),
      treeOf(viewer),
      // Who misses a document is for those who edit agendas (decision 130), not for members.
      mayUseAdminRoutes(principal) ? treesOfRoles(event.roles, treeOf) : Promise.resolve(undefined),
    ]);
    return items.map(({ files, ...item }) => ({
      ...item,
      files: files
        .filter((file) => canSeeFile(tree, file))
        .map((file): AgendaFile => ({
          id: file.id,
          title: file.title,
          format: file.format,
          mime_type: file.mime_type,
          external: file.download_key,
          size: megabytes(file.size_bytes),
          size_bytes: file.size_bytes,
          updated_at: file.updated_at,
          ...(roleTrees ? { unseen_by: unseenBy(file, roleTrees) } : {}),
        })),
    }));
  }

  /** 422 under each field path whose documents are unknown or in the Papierkorb. */
  function assertAllLive(fields: readonly { path: string; ids: readonly number[] }[], live: Set<number>) {
    const errors: Record<string, string[]> = {};
    for (const field of fields) {
      if (field.ids.some((id) => !live.has(id))) errors[field.path] = [MEETING_MESSAGES.unknownFile];
    }
    if (Object.keys(errors).length > 0)
      throw new AppError('validation', MEETING_MESSAGES.unknownFile, errors);
  }

  return {
    async get(principal: Principal, eventId: number): Promise<AgendaItem[]> {
      return agendaFor(principal, await visibleEvent(db, principal, eventId));
    },

    /**
     * Replaces the whole agenda in one transaction on the locked event row, with its audit entry;
     * the event's `updated_at` rises.
     */
    async replace(actor: Actor, eventId: number, body: PutAgendaBody): Promise<AgendaItem[]> {
      const now = ctx.clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        await lockEventRow(trx, ctx.db.dialect, eventId);
        const event = await visibleEvent(trx, actor.principal, eventId);
        const fields = body.items.flatMap((item, index) => [
          { path: `items.${index}.file_ids`, ids: item.file_ids },
          ...item.children.map((child, childIndex) => ({
            path: `items.${index}.children.${childIndex}.file_ids`,
            ids: child.file_ids,
          })),
        ]);
        const live = await filesByIds(
          trx,
          fields.flatMap((field) => field.ids),
        );
        assertAllLive(fields, new Set(live.map((file) => file.id)));
        const previous = await deleteAgenda(trx, eventId);
        let subItems = 0;
        let documents = 0;
        const insert = async (
          item: PutAgendaBody['items'][number]['children'][number],
          parentId: number | null,
          position: number,
        ) => {
          const itemId = await insertAgendaItem(trx, {
            event_id: eventId,
            parent_id: parentId,
            position,
            title: item.title,
            description: item.description,
            presenter: item.presenter,
          });
          await insertItemFiles(
            trx,
            item.file_ids.map((fileId, index) => ({ item_id: itemId, file_id: fileId, position: index })),
          );
          documents += item.file_ids.length;
          return itemId;
        };
        for (const [position, item] of body.items.entries()) {
          const parentId = await insert(item, null, position);
          for (const [childPosition, child] of item.children.entries()) {
            await insert(child, parentId, childPosition);
            subItems += 1;
          }
        }
        await updateEventRow(trx, eventId, { updated_at: now });
        await recordAudit(trx, ctx.clock, {
          ...auditOnEvent(actor, event),
          action: 'event.agenda_updated',
          details: { items: body.items.length, sub_items: subItems, documents, previous_items: previous },
        });
      });
      return agendaFor(actor.principal, await visibleEvent(db, actor.principal, eventId));
    },

    /** Which of the event's roles would not see each of these documents (the form's warning). */
    async check(
      principal: Principal,
      eventId: number,
      fileIds: readonly number[],
    ): Promise<AgendaCheckResponse['data']> {
      const event = await visibleEvent(db, principal, eventId);
      const files = await filesByIds(db, fileIds);
      const byId = new Map(files.map((file) => [file.id, file]));
      assertAllLive([{ path: 'file_ids', ids: fileIds }], new Set(byId.keys()));
      const roleTrees = await treesOfRoles(event.roles, treeOf);
      return [...new Set(fileIds)].map((id) => {
        const file = byId.get(id)!;
        return { file_id: id, title: file.title, unseen_by: unseenBy(file, roleTrees) };
      });
    },
  };
}
