// Over 300 lines: create and update each run folder checks, roles, row, audit and notifications in one
// transaction with the storage clean-up around it; input, mails and queries already have their own files.
import {
  createFileBodySchema,
  FILE_MESSAGES,
  updateFileBodySchema,
  type StoredFile,
} from '@gremienportal/contracts/files';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import {
  auditBy,
  recordAudit,
  recordDelivery,
  type AuditEntry,
  type Delivery,
  auditOn,
  changeOf,
} from '../audit/audit-log.service.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { discardUpload, type UploadSource } from '../../http/upload-source.ts';
import { newKey } from '../../storage/object-keys.ts';
import { canSeeFile, fileFilter } from '../../policies/files.policy.ts';
import { FolderTree } from '../../policies/folders.policy.ts';
import { fileTextState } from '../search/search.service.ts';
import { viewerOf, type Viewer } from '../../policies/principal.ts';
import { checkNotifications, fileFieldOf, normalize, parseFieldsSoFar, uploadFolder } from './files.input.ts';
import { parseFields } from '../../http/upload-fields.ts';
import { queueNotifications } from './files.notifications.ts';
import { allRoles } from '../roles/roles.service.ts';
import * as repo from './files.repository.ts';
import { keepAsVersion, nextContentColumns } from './versions.repository.ts';
import { trashFile } from '../trash/move-to-trash.service.ts';
import { visibleFile } from './visible-file.ts';
import { loadFolders, loadFiles, type FileRecord } from '../../db/document-records.ts';
import { assertWritable, lockedTree } from '../folders/folders.service.ts';
import { namesOfRoles, resolveRoles } from '../roles/roles.service.ts';
import {
  readStateService,
  toStoredFile,
  type CacheView,
  type ReadCache,
} from '../explorer/explorer.service.ts';
import { acknowledgementColumns } from './acknowledgements.input.ts';
import { memberFieldsOf } from './files.member.ts';
import { checkUploadBatch, joinUploadBatch } from './upload-batches.service.ts';

export { memberFieldsOf };

/** One file with its roles, whoever may see it (for "who can see this"; the caller decides). */
export function fileById(db: Kysely<Database> | Transaction<Database>, id: number) {
  return repo.findFile(db, { id });
}

/**
 * One delivery of a document's content (the current one or an old version, told apart by the
 * storage key), as `recordDelivery` takes it: once per session, content and purpose within the
 * window (decision 116).
 */
export function fileDelivery(
  actor: Actor,
  content: { id: number; key: string; label: string },
  purpose: 'view' | 'download',
  details?: Record<string, unknown>,
): { delivery: Delivery; entry: AuditEntry } {
  return {
    delivery: {
      sessionId: actor.principal.sessionId,
      objectKind: 'file',
      objectId: content.id,
      contentVersion: content.key,
      purpose,
    },
    entry: {
      ...auditOn(actor, 'file', content.id, content.label),
      action: purpose === 'view' ? 'file.viewed' : 'file.downloaded',
      ...(details ? { details } : {}),
    },
  };
}

/** Records one delivery of a document's content (see `fileDelivery`). */
export async function recordFileDelivery(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  content: { id: number; key: string; label: string },
  purpose: 'view' | 'download',
  details?: Record<string, unknown>,
): Promise<void> {
  const { delivery, entry } = fileDelivery(actor, content, purpose, details);
  await recordDelivery(ctx.db.kysely, ctx.clock, delivery, entry);
}

export function filesService(ctx: AppContext, cache: ReadCache) {
  const db = () => ctx.db.kysely;
  const reads = readStateService(ctx, cache);

  /** A file the viewer may see (`visibleFile`), with the cached folder tree it was checked against. */
  async function visibleCachedFile(
    viewer: Viewer,
    by: { id: number } | { downloadKey: string },
    view?: CacheView,
  ) {
    const tree = await (view ?? (await cache.view())).folderTree(viewer);
    return { tree, file: await visibleFile(db(), tree, by) };
  }

  async function fileFor(principal: Principal, id: number): Promise<StoredFile> {
    const view = await cache.view();
    const { tree, file } = await visibleCachedFile(viewerOf(principal), { id }, view);
    const member = await memberFieldsOf(ctx, await cache.reads.news(view, principal), principal, [file]);
    return toStoredFile(file, tree, member.get(file.id));
  }

  return {
    /** Visible files, newest first (the overview "Übersicht aktueller Dateien"). */
    async list(principal: Principal, limit?: number): Promise<StoredFile[]> {
      const viewer = viewerOf(principal);
      const view = await cache.view();
      const tree = await view.folderTree(viewer);
      const files = await loadFiles(db(), {
        newest: true,
        ...(limit !== undefined ? { limit } : {}),
        visible: fileFilter(tree),
      });
      const visible = files.filter((file) => canSeeFile(tree, file));
      const member = await memberFieldsOf(ctx, await cache.reads.news(view, principal), principal, visible);
      return visible.map((file) => toStoredFile(file, tree, member.get(file.id)));
    },

    async get(principal: Principal, id: number): Promise<StoredFile> {
      const file = await fileFor(principal, id);
      return { ...file, text_state: await fileTextState(ctx, id) };
    },

    /** The file behind a download key, if the principal may see it. */
    async forDownload(principal: Principal, key: string): Promise<FileRecord> {
      return (await visibleCachedFile(viewerOf(principal), { downloadKey: key })).file;
    },

    /**
     * Records a response with content, once per session, version and purpose within the window
     * (decision 116). `view`: the web app opened it in a tab ("Ansehen"); otherwise it was saved.
     */
    async recordDownload(actor: Actor, file: FileRecord, purpose: 'view' | 'download'): Promise<void> {
      await recordFileDelivery(
        ctx,
        actor,
        { id: file.id, key: file.storage_key, label: `${file.title}.${file.format}` },
        purpose,
      );
      // Any delivery of the current content: no longer new, and a Kenntnisnahme may follow.
      await reads.opened(actor.principal, file);
    },

    /**
     * The checks of `create` that the fields sent before the file part of a multipart upload
     * allow, run before a byte of the file is stored: the fields' rules, the folder,
     * the roles. Whether the notified roles are among the file's waits for the full check, as a
     * `permissions` part after the file could still add the missing role.
     */
    async checkCreateFields(actor: Actor, fields: Record<string, unknown>): Promise<void> {
      const body = parseFieldsSoFar(createFileBodySchema, fields);
      if (!body) return;
      const input = normalize(body);
      const tree = new FolderTree(await loadFolders(db()), viewerOf(actor.principal));
      uploadFolder(tree, input.folderId!, input.folderField);
      const roles = await allRoles(db());
      resolveRoles(roles, input.roleRefs ?? [], input.rolesField);
      resolveRoles(roles, input.notifications, 'notifications');
      if (body.batch_id !== undefined) await checkUploadBatch(db(), actor, body.batch_id);
    },

    /** `checkCreateFields` for a replacement: also the document itself must be visible (else 404). */
    async checkUpdateFields(actor: Actor, id: number, fields: Record<string, unknown>): Promise<void> {
      const body = parseFieldsSoFar(updateFileBodySchema, fields);
      if (!body) return;
      const input = normalize(body);
      const tree = new FolderTree(await loadFolders(db()), viewerOf(actor.principal));
      const file = await visibleFile(db(), tree, { id });
      // The file part begins: the content is to be replaced.
      assertWritable(tree, file.folder_id);
      if (input.folderId !== undefined && input.folderId !== file.folder_id) {
        uploadFolder(tree, input.folderId, input.folderField);
      }
      const roles = await allRoles(db());
      if (input.roleRefs) resolveRoles(roles, input.roleRefs, input.rolesField);
      resolveRoles(roles, input.notifications, 'notifications');
    },

    /**
     * A new document. The content is already in storage (`upload.stored`); the row commits after
     * it, and when anything fails the stored object is deleted again.
     */
    async create(actor: Actor, upload: UploadSource): Promise<StoredFile> {
      const viewer = viewerOf(actor.principal);
      try {
        const fileField = fileFieldOf(upload.fields);
        const body = parseFields(
          createFileBodySchema,
          upload.fields,
          upload.stored ? {} : { [fileField]: [FILE_MESSAGES.fileRequired] },
        );
        const stored = upload.stored!;
        const input = normalize(body);
        const now = ctx.clock.now().toISOString();
        const acknowledgement = acknowledgementColumns(body, undefined, { replaced: true, now });
        const id = await db()
          .transaction()
          .execute(async (trx) => {
            const tree = await lockedTree(trx, ctx.db.dialect, viewer);
            const folder = uploadFolder(tree, input.folderId!, input.folderField);
            const roles = await allRoles(trx);
            const roleIds = resolveRoles(roles, input.roleRefs ?? [], input.rolesField);
            const notifyIds = resolveRoles(roles, input.notifications, 'notifications');
            checkNotifications(notifyIds, roleIds);
            const fileId = await repo.insertFile(trx, {
              folder_id: folder.id,
              title: body.title,
              format: stored.format,
              mime_type: stored.mimeType,
              size_bytes: stored.size,
              sha256: stored.sha256,
              storage_key: stored.key,
              download_key: newKey(),
              created_at: now,
              updated_at: now,
              content_at: now,
              content_by_label: auditBy(actor).actor?.label ?? null,
              restored_from: null,
              ...acknowledgement.columns,
            });
            await repo.setFileRoles(trx, fileId, roleIds);
            if (body.batch_id !== undefined) await joinUploadBatch(ctx, trx, actor, body.batch_id);
            await recordAudit(trx, ctx.clock, {
              ...auditOn(actor, 'file', fileId, `${body.title}.${stored.format}`),
              action: 'file.created',
              details: {
                folder: folder.breadcrumb,
                roles: namesOfRoles(roles, roleIds),
                size_bytes: stored.size,
                notifications: namesOfRoles(roles, notifyIds),
                ...acknowledgement.details,
              },
            });
            await queueNotifications(
              ctx,
              trx,
              tree,
              {
                id: fileId,
                title: body.title,
                format: stored.format,
                size_bytes: stored.size,
                folder_id: folder.id,
                roleIds,
              },
              notifyIds,
              'created',
              body.batch_id,
            );
            return fileId;
          });
        return await fileFor(actor.principal, id);
      } catch (error) {
        await discardUpload(ctx, upload);
        throw error;
      }
    },

    /**
     * Changes title, roles or folder and, with a new file, replaces the content: the new object is
     * written first, and the row commits with the previous content kept as a version.
     */
    async update(actor: Actor, id: number, upload: UploadSource): Promise<StoredFile> {
      const viewer = viewerOf(actor.principal);
      try {
        const body = parseFields(updateFileBodySchema, upload.fields);
        const input = normalize(body);
        const stored = upload.stored;
        const now = ctx.clock.now().toISOString();
        await db()
          .transaction()
          .execute(async (trx) => {
            const tree = await lockedTree(trx, ctx.db.dialect, viewer);
            const file = await visibleFile(trx, tree, { id });
            const folder =
              input.folderId !== undefined && input.folderId !== file.folder_id
                ? uploadFolder(tree, input.folderId, input.folderField)
                : tree.byId.get(file.folder_id)!;
            const roles = await allRoles(trx);
            const roleIds = input.roleRefs
              ? resolveRoles(roles, input.roleRefs, input.rolesField)
              : file.roles.map((role) => role.id);
            const notifyIds = resolveRoles(roles, input.notifications, 'notifications');
            checkNotifications(notifyIds, roleIds);
            const title = body.title ?? file.title;
            const audit = auditBy(actor);
            const acknowledgement = acknowledgementColumns(body, file, {
              replaced: stored !== undefined,
              now,
            });
            // In an archived folder only who may read the document can change (decision 189).
            const changed =
              stored !== undefined ||
              title !== file.title ||
              folder.id !== file.folder_id ||
              Object.keys(acknowledgement.details).length > 0;
            if (changed) assertWritable(tree, file.folder_id);
            if (stored) await keepAsVersion(trx, file, { at: now, byLabel: audit.actor?.label ?? null });
            await repo.updateFile(trx, id, {
              title,
              folder_id: folder.id,
              updated_at: now,
              ...(stored
                ? nextContentColumns(
                    file,
                    {
                      format: stored.format,
                      mime_type: stored.mimeType,
                      size_bytes: stored.size,
                      sha256: stored.sha256,
                      storage_key: stored.key,
                    },
                    { at: now, byLabel: audit.actor?.label ?? null, restoredFrom: null },
                  )
                : {}),
              ...acknowledgement.columns,
            });
            if (input.roleRefs) await repo.setFileRoles(trx, id, roleIds);
            await recordAudit(trx, ctx.clock, {
              ...audit,
              action: 'file.updated',
              objectType: 'file',
              objectId: id,
              objectLabel: `${title}.${stored?.format ?? file.format}`,
              details: {
                ...(title !== file.title ? { title: { from: file.title, to: title } } : {}),
                ...(folder.id !== file.folder_id
                  ? { folder: { from: tree.byId.get(file.folder_id)?.breadcrumb, to: folder.breadcrumb } }
                  : {}),
                ...(input.roleRefs
                  ? changeOf(
                      'roles',
                      file.roles.map((r) => r.name),
                      namesOfRoles(roles, roleIds),
                    )
                  : {}),
                ...(stored ? { replaced: true, size_bytes: stored.size, version: file.version + 1 } : {}),
                ...(notifyIds.length > 0 ? { notifications: namesOfRoles(roles, notifyIds) } : {}),
                ...acknowledgement.details,
              },
            });
            await queueNotifications(
              ctx,
              trx,
              tree,
              {
                id,
                title,
                format: stored?.format ?? file.format,
                size_bytes: stored?.size ?? file.size_bytes,
                folder_id: folder.id,
                roleIds,
              },
              notifyIds,
              'updated',
            );
          });
      } catch (error) {
        await discardUpload(ctx, upload);
        throw error;
      }
      return fileFor(actor.principal, id);
    },

    /** Moves the document (with its roles and old versions) to the Papierkorb; nothing is removed. */
    async remove(actor: Actor, id: number): Promise<void> {
      const viewer = viewerOf(actor.principal);
      await db()
        .transaction()
        .execute(async (trx) => {
          const tree = await lockedTree(trx, ctx.db.dialect, viewer);
          const file = await visibleFile(trx, tree, { id });
          assertWritable(tree, file.folder_id);
          const folder = tree.byId.get(file.folder_id);
          const audit = auditBy(actor);
          await trashFile(trx, id, {
            title: `${file.title}.${file.format}`,
            formerPath: folder?.breadcrumb ?? null,
            formerParentId: file.folder_id,
            deletedAt: ctx.clock.now().toISOString(),
            deletedBy: audit.actor ?? null,
          });
          await recordAudit(trx, ctx.clock, {
            ...audit,
            action: 'file.deleted',
            objectType: 'file',
            objectId: id,
            objectLabel: `${file.title}.${file.format}`,
            details: { folder: folder?.breadcrumb, size_bytes: file.size_bytes, trash: true },
          });
        });
    },
  };
}
