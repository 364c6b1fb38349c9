// Over 300 lines because every folder use case shares one transaction helper and the same tree checks, and it is the one door the files feature uses into folders.
import { PROTECTED_FOLDER_IDS, ROOT_FOLDER_ID } from '@gremienportal/contracts/common';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  FOLDER_MESSAGES,
  periodFolderTitle,
  type CreateFolderBody,
  type Folder,
  type FolderDetail,
  type FolderRef,
  type PeriodBody,
  type UpdateFolderBody,
} from '@gremienportal/contracts/folders';
import type { ExplorerItem, StoredFile, TreeNode } from '@gremienportal/contracts/files';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidField, notFound } from '../../errors.ts';
import { auditBy, auditOn, changeOf, recordAudit } from '../audit/audit-log.service.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeFile } from '../../policies/files.policy.ts';
import { canSeeFolder, compareTitles, FolderTree } from '../../policies/folders.policy.ts';
import { viewerOf, type Principal, type Viewer } from '../../policies/principal.ts';
import {
  childBreadcrumb,
  fileSlotKey,
  folderSlotKey,
  sameTitle,
  toFolder,
  toFolderRef,
  toStoredFile,
  type FilesTree,
  type ReadCache,
  type Serialised,
} from '../explorer/explorer.service.ts';
import { allRoles, namesOfRoles, resolveRoles } from '../roles/roles.service.ts';
import * as repo from './folders.repository.ts';
import {
  loadFiles,
  loadFolders,
  lockFolderTree,
  type FileRecord,
  type FolderRecord,
} from '../../db/document-records.ts';
import type { Dialect } from '../../db/dialect.ts';
import { trashFolder } from '../trash/move-to-trash.service.ts';
import { countSlot, flagSlot } from '../../http/spliced-json.ts';

const isProtected = (id: number) => PROTECTED_FOLDER_IDS.includes(id);
const protectedError = () => new AppError('validation', FOLDER_MESSAGES.protectedFolder);

/** Length in characters as SQL counts them (code points), for the breadcrumb prefix rewrite. */
const sqlLength = (value: string) => [...value].length;

function assertUniqueTitle(tree: FolderTree, parentId: number, title: string, exceptId?: number) {
  const clash = tree
    .allChildren(parentId)
    .some((child) => child.id !== exceptId && sameTitle(child.title, title));
  if (clash) throw invalidField('title', FOLDER_MESSAGES.duplicateTitle);
}

/**
 * Refuses a write in an archived folder (the folder of an ended Amtsperiode or below it, decision
 * 189), also for Admins and Super-Admins: every write into, out of or inside a folder asks it, on
 * the tree read fresh under the lock.
 */
export function assertWritable(tree: FolderTree, folderId: number): void {
  if (tree.isArchived(folderId)) throw archivedError();
}

const archivedError = () => new AppError('validation', FOLDER_MESSAGES.archived);

/** Takes the tree lock and reads the tree fresh, as the viewer sees it: how every tree write starts. */
export async function lockedTree(
  trx: Transaction<Database>,
  dialect: Dialect,
  viewer: Viewer,
): Promise<FolderTree<FolderRecord>> {
  await lockFolderTree(trx, dialect);
  return new FolderTree(await loadFolders(trx), viewer);
}

/**
 * Runs a folder write on the tree read fresh under the lock; a unique-index refusal (a race the
 * in-memory check missed) is a 422.
 */
async function folderWrite<T>(
  ctx: AppContext,
  viewer: Viewer,
  work: (trx: Transaction<Database>, tree: FolderTree<FolderRecord>) => Promise<T>,
): Promise<T> {
  try {
    return await ctx.db.kysely
      .transaction()
      .execute(async (trx) => work(trx, await lockedTree(trx, ctx.db.dialect, viewer)));
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidField('title', FOLDER_MESSAGES.duplicateTitle);
    throw error;
  }
}

export function foldersService(ctx: AppContext, cache: ReadCache) {
  const db = () => ctx.db.kysely;

  /** The viewer's tree and counts with the member's new documents per folder, at one version. */
  async function snapshotWithNews(principal: Principal) {
    const view = await cache.view();
    const [snapshot, news] = await Promise.all([
      view.snapshot(viewerOf(principal)),
      cache.reads.news(view, principal),
    ]);
    return { ...snapshot, newCounts: news.counts };
  }

  async function folderFor(principal: Principal, id: number): Promise<Folder> {
    const { tree, fileCounts, newCounts } = await snapshotWithNews(principal);
    const folder = tree.find(id);
    if (!folder) throw notFound();
    return toFolder(folder, tree, fileCounts, newCounts.get(id) ?? 0);
  }

  /** The whole visible tree from the root, with the visible files of every folder. */
  /** `files`: every document, sorted by title (the cache loads and sorts them once per version). */
  function buildTree(tree: FilesTree, files: readonly FileRecord[] | undefined): TreeNode {
    const filesByFolder = new Map<number, StoredFile[]>();
    for (const file of files ?? []) {
      if (!canSeeFile(tree, file)) continue;
      const list = filesByFolder.get(file.folder_id) ?? [];
      list.push(toStoredFile(file, tree));
      filesByFolder.set(file.folder_id, list);
    }
    const build = (id: number): TreeNode => {
      const folder = tree.byId.get(id)!;
      return {
        id: folder.id,
        title: folder.title,
        breadcrumb: folder.breadcrumb,
        roles: folder.roles.map((role) => role.name),
        new_count: countSlot(folderSlotKey(folder.id)),
        archived: tree.isArchived(folder.id),
        children: tree.visibleChildren(id).map((child) => build(child.id)),
        files: filesByFolder.get(id) ?? [],
      };
    };
    if (!tree.byId.has(ROOT_FOLDER_ID)) throw notFound();
    return build(ROOT_FOLDER_ID);
  }

  return {
    /** Every visible folder as a flat list, by breadcrumb (for selects). */
    async list(principal: Principal): Promise<Folder[]> {
      const { tree, fileCounts, newCounts } = await snapshotWithNews(principal);
      return tree
        .visibleFolders()
        .map((folder) => toFolder(folder, tree, fileCounts, newCounts.get(folder.id) ?? 0));
    },

    /** One folder plus what lies below it (for the delete confirmation). */
    async get(principal: Principal, id: number): Promise<FolderDetail> {
      const { tree, fileCounts, newCounts } = await snapshotWithNews(principal);
      const folder = tree.find(id);
      if (!folder) throw notFound();
      const below = tree.descendantIds(id).filter((childId) => canSeeFolder(tree, childId));
      const files = [id, ...below].reduce((sum, folderId) => sum + (fileCounts.get(folderId) ?? 0), 0);
      return {
        ...toFolder(folder, tree, fileCounts, newCounts.get(id) ?? 0),
        contents: { folders: below.length, files },
      };
    },

    /**
     * The explorer grid: visible subfolders (by title), then visible files (by title); serialised
     * and kept until the next change (decision 111), with the member's "neu" markers spliced in.
     */
    async items(principal: Principal, id: number): Promise<Serialised> {
      const view = await cache.view();
      const listing = await view.listing(viewerOf(principal), id, async ({ tree, fileCounts }) => {
        const files = (await loadFiles(db(), { folderId: id }))
          .filter((file) => canSeeFile(tree, file))
          .sort(compareTitles)
          .map((file) => toStoredFile(file, tree, { new: flagSlot(fileSlotKey(file.id)) }));
        const items: ExplorerItem[] = [
          ...tree
            .visibleChildren(id)
            .map((child) => toFolder(child, tree, fileCounts, countSlot(folderSlotKey(child.id)))),
          ...files,
        ];
        return items;
      });
      if (!listing) throw notFound();
      return cache.reads.answer(view, principal, `listing:${id}`, listing);
    },

    /**
     * The whole visible tree from the root with the visible files of every folder, serialised;
     * rebuilt only when the database reports a change (the version is read before the data, so
     * a cached tree is never older than its version).
     */
    async serialisedTree(principal: Principal, withFiles = true): Promise<Serialised> {
      const view = await cache.view();
      const tree = await view.serialisedTree(viewerOf(principal), withFiles, buildTree);
      return cache.reads.answer(view, principal, withFiles ? 'tree' : 'folders', tree);
    },

    /** Move targets of a folder: visible folders except itself and everything below it. */
    async moveTargets(principal: Principal, id: number): Promise<FolderRef[]> {
      const tree = await cache.folderTree(viewerOf(principal));
      if (!tree.find(id)) throw notFound();
      const excluded = new Set([id, ...tree.descendantIds(id)]);
      return tree
        .visibleFolders()
        .filter((folder) => !excluded.has(folder.id))
        .map((folder) => toFolderRef(folder, tree));
    },

    /** Upload targets: every visible folder except the root. */
    async uploadTargets(principal: Principal): Promise<FolderRef[]> {
      const tree = await cache.folderTree(viewerOf(principal));
      return tree
        .visibleFolders()
        .filter((folder) => folder.parent_id !== null)
        .map((folder) => toFolderRef(folder, tree));
    },

    /** New folder in `folder_id` (or `parent_id`, default the root); roles default to the parent's. */
    async create(actor: Actor, body: CreateFolderBody): Promise<Folder> {
      const viewer = viewerOf(actor.principal);
      const parentField =
        body.folder_id === undefined && body.parent_id !== undefined ? 'parent_id' : 'folder_id';
      const parentId = body.folder_id ?? body.parent_id ?? ROOT_FOLDER_ID;
      const now = ctx.clock.now().toISOString();
      const id = await folderWrite(ctx, viewer, async (trx, tree) => {
        const parent = tree.find(parentId);
        if (!parent) throw invalidField(parentField, FOLDER_MESSAGES.parentNotFound);
        assertWritable(tree, parent.id);
        assertUniqueTitle(tree, parent.id, body.title);
        const roles = await allRoles(trx);
        const roleIds = body.roles ? resolveRoles(roles, body.roles, 'roles') : parent.roles.map((r) => r.id);
        const breadcrumb = childBreadcrumb(parent.breadcrumb, body.title);
        const folderId = await repo.insertFolder(trx, {
          parent_id: parent.id,
          title: body.title,
          breadcrumb,
          created_at: now,
          updated_at: now,
        });
        await repo.setFolderRoles(trx, folderId, roleIds);
        await recordAudit(trx, ctx.clock, {
          ...auditOn(actor, 'folder', folderId, breadcrumb),
          action: 'folder.created',
          details: {
            parent_id: parent.id,
            roles: namesOfRoles(roles, roleIds),
          },
        });
        return folderId;
      });
      return folderFor(actor.principal, id);
    },

    /** Rename, move (`parent_id`) and re-role; breadcrumbs below follow in the same transaction. */
    async update(actor: Actor, id: number, body: UpdateFolderBody): Promise<Folder> {
      const viewer = viewerOf(actor.principal);
      const now = ctx.clock.now().toISOString();
      await folderWrite(ctx, viewer, async (trx, tree) => {
        const folder = tree.find(id);
        if (!folder) throw notFound();
        if (isProtected(id) || folder.parent_id === null) throw protectedError();
        const parentId = body.parent_id ?? folder.parent_id;
        const parent = tree.find(parentId);
        if (!parent) throw invalidField('parent_id', FOLDER_MESSAGES.parentNotFound);
        if (parentId === id || tree.descendantIds(id).includes(parentId)) {
          throw invalidField('parent_id', FOLDER_MESSAGES.moveIntoItself);
        }
        // An archived folder keeps its name and place; who may read it can still change (decision 189).
        if (body.title !== folder.title || parentId !== folder.parent_id) assertWritable(tree, id);
        if (parentId !== folder.parent_id) assertWritable(tree, parentId);
        assertUniqueTitle(tree, parentId, body.title, id);
        const breadcrumb = childBreadcrumb(parent.breadcrumb, body.title);
        await repo.updateFolder(trx, id, {
          title: body.title,
          parent_id: parentId,
          breadcrumb,
          updated_at: now,
        });
        if (breadcrumb !== folder.breadcrumb) {
          await repo.rewriteBreadcrumbs(
            trx,
            tree.descendantIds(id),
            sqlLength(folder.breadcrumb),
            breadcrumb,
          );
        }
        const roles = await allRoles(trx);
        let roleNames: string[] | undefined;
        if (body.roles) {
          const roleIds = resolveRoles(roles, body.roles, 'roles');
          await repo.setFolderRoles(trx, id, roleIds);
          roleNames = namesOfRoles(roles, roleIds);
        }
        await recordAudit(trx, ctx.clock, {
          ...auditOn(actor, 'folder', id, breadcrumb),
          action: 'folder.updated',
          details: {
            ...(folder.title !== body.title ? { title: { from: folder.title, to: body.title } } : {}),
            ...(parentId !== folder.parent_id ? { moved: { from: folder.parent_id, to: parentId } } : {}),
            ...(breadcrumb !== folder.breadcrumb
              ? { breadcrumb: { from: folder.breadcrumb, to: breadcrumb } }
              : {}),
            ...(roleNames
              ? changeOf(
                  'roles',
                  folder.roles.map((r) => r.name),
                  roleNames,
                )
              : {}),
          },
        });
      });
      return folderFor(actor.principal, id);
    },

    /** Moves a folder with everything below it to the Papierkorb, as it is; nothing is removed. */
    async remove(actor: Actor, id: number): Promise<void> {
      const viewer = viewerOf(actor.principal);
      await folderWrite(ctx, viewer, async (trx, tree) => {
        const folder = tree.find(id);
        if (!folder) throw notFound();
        if (isProtected(id) || folder.parent_id === null) throw protectedError();
        // Also a folder that holds an archived one: the archive would go to the Papierkorb with it.
        if (tree.holdsArchived(id)) throw archivedError();
        const below = tree.descendantIds(id);
        const audit = auditBy(actor);
        const moved = await trashFolder(trx, [id, ...below], {
          title: folder.title,
          formerPath: folder.breadcrumb,
          formerParentId: folder.parent_id,
          deletedAt: ctx.clock.now().toISOString(),
          deletedBy: audit.actor ?? null,
        });
        await recordAudit(trx, ctx.clock, {
          ...audit,
          action: 'folder.deleted',
          objectType: 'folder',
          objectId: id,
          objectLabel: folder.breadcrumb,
          details: { folders: below.length, files: moved.files, trash: true },
        });
      });
    },

    /**
     * Amtsperiode (product.md P6.8): `Amtsperiode {start}–{end}` in the given folder with one subfolder
     * per year, roles from the parent. What exists already is reused, so running it twice is safe.
     */
    async createPeriod(actor: Actor, body: PeriodBody): Promise<Folder> {
      const viewer = viewerOf(actor.principal);
      const now = ctx.clock.now().toISOString();
      const periodId = await folderWrite(ctx, viewer, async (trx, tree) => {
        const parent = tree.find(body.folder_id);
        if (!parent) throw invalidField('folder_id', FOLDER_MESSAGES.parentNotFound);
        const created: string[] = [];
        const ensure = async (under: FolderRecord, title: string) => {
          const existing = tree.allChildren(under.id).find((child) => sameTitle(child.title, title));
          if (existing) return existing;
          assertWritable(tree, under.id);
          const breadcrumb = childBreadcrumb(under.breadcrumb, title);
          const folderId = await repo.insertFolder(trx, {
            parent_id: under.id,
            title,
            breadcrumb,
            created_at: now,
            updated_at: now,
          });
          await repo.setFolderRoles(
            trx,
            folderId,
            under.roles.map((role) => role.id),
          );
          created.push(breadcrumb);
          const record: FolderRecord = {
            id: folderId,
            parent_id: under.id,
            title,
            breadcrumb,
            created_at: now,
            updated_at: now,
            roles: under.roles,
            archived: false,
          };
          return record;
        };
        // New folders take the roles of the folder they are created in.
        const period = await ensure(parent, periodFolderTitle(body.start, body.end));
        for (let year = body.start; year <= body.end; year += 1) {
          await ensure(period, String(year));
        }
        await recordAudit(trx, ctx.clock, {
          ...auditOn(actor, 'period', period.id, period.breadcrumb),
          action: 'period.created',
          details: { folder_id: parent.id, start: body.start, end: body.end, created },
        });
        return period.id;
      });
      return folderFor(actor.principal, periodId);
    },
  };
}
