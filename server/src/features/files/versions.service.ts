import { VERSION_MESSAGES, type FileVersion } from '@gremienportal/contracts/versions';
import type { StoredFile } from '@gremienportal/contracts/files';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Actor } from '../../plugins/auth.ts';
import type { DownloadObject } from '../../http/send-download.ts';
import { auditBy, recordAudit } from '../audit/audit-log.service.ts';
import { deleteReleasedObjects } from '../../storage/released-objects.ts';
import { loadFiles, type FileRecord } from '../../db/document-records.ts';
import { viewerOf } from '../../policies/principal.ts';
import { assertWritable, lockedTree } from '../folders/folders.service.ts';
import { megabytes } from '../explorer/explorer.service.ts';
import * as repo from './files.repository.ts';
import { recordFileDelivery } from './files.service.ts';
import { findVersion, keepAsVersion, listVersions, nextContentColumns } from './versions.repository.ts';

/** A document's versions (decision 125); the routes let only Admins and Super-Admins in. */
export function versionsService(ctx: AppContext, fileFor: (actor: Actor, id: number) => Promise<StoredFile>) {
  const db = () => ctx.db.kysely;

  async function existingFile(id: number): Promise<FileRecord> {
    const [file] = await loadFiles(db(), { id });
    if (!file) throw notFound();
    return file;
  }

  return {
    /** The current version first, then the old ones, newest first. */
    async list(id: number): Promise<FileVersion[]> {
      const file = await existingFile(id);
      const old = await listVersions(db(), id);
      const current: FileVersion = {
        version: file.version,
        current: true,
        date: file.content_at ?? file.updated_at,
        stored_by: file.content_by_label,
        replaced_at: null,
        replaced_by: null,
        restored_from: file.restored_from,
        format: file.format,
        mime_type: file.mime_type,
        size_bytes: Number(file.size_bytes),
        size: megabytes(Number(file.size_bytes)),
      };
      return [
        current,
        ...old.map((row) => ({
          version: row.version,
          current: false,
          date: row.content_at,
          stored_by: row.content_by_label,
          replaced_at: row.replaced_at,
          replaced_by: row.replaced_by_label,
          restored_from: row.restored_from,
          format: row.format,
          mime_type: row.mime_type,
          size_bytes: row.size_bytes,
          size: megabytes(row.size_bytes),
        })),
      ];
    },

    /** What a version's download sends; the current number sends the current content. */
    async forDownload(id: number, version: number): Promise<DownloadObject> {
      const file = await existingFile(id);
      if (version === file.version) {
        return {
          kind: 'file',
          id,
          key: file.storage_key,
          title: file.title,
          format: file.format,
          mimeType: file.mime_type,
        };
      }
      const row = await findVersion(db(), id, version);
      if (!row) throw notFound();
      return {
        kind: 'file',
        id,
        key: row.storage_key,
        title: `${file.title} (Version ${version})`,
        format: row.format,
        mimeType: row.mime_type,
      };
    },

    async recordDownload(
      actor: Actor,
      object: DownloadObject,
      version: number,
      purpose: 'view' | 'download',
    ) {
      const label = `${object.title}.${object.format}`;
      await recordFileDelivery(ctx, actor, { id: object.id, key: object.key, label }, purpose, { version });
    },

    /**
     * Makes a new current version from an old one: its content is copied to a new object first,
     * then the row commits with the replaced content kept as a version. Nothing is lost.
     */
    async restore(actor: Actor, id: number, version: number): Promise<StoredFile> {
      const first = await existingFile(id);
      if (version === first.version) throw new AppError('conflict', VERSION_MESSAGES.alreadyCurrent);
      const source = await findVersion(db(), id, version);
      if (!source) throw notFound();
      const copy = await ctx.storage.put(await ctx.storage.get(source.storage_key), {
        maxBytes: Number.MAX_SAFE_INTEGER,
      });
      try {
        await db()
          .transaction()
          .execute(async (trx) => {
            const tree = await lockedTree(trx, ctx.db.dialect, viewerOf(actor.principal));
            const [file] = await loadFiles(trx, { id });
            // Deleted or replaced meanwhile: the copy goes again.
            if (!file) throw notFound();
            assertWritable(tree, file.folder_id);
            const row = await findVersion(trx, id, version);
            if (!row) throw notFound();
            const now = ctx.clock.now().toISOString();
            const audit = auditBy(actor);
            await keepAsVersion(trx, file, { at: now, byLabel: audit.actor?.label ?? null });
            await repo.updateFile(trx, id, {
              ...nextContentColumns(
                file,
                {
                  format: row.format,
                  mime_type: row.mime_type,
                  size_bytes: copy.size,
                  sha256: copy.sha256,
                  storage_key: copy.key,
                },
                { at: now, byLabel: audit.actor?.label ?? null, restoredFrom: version },
              ),
              updated_at: now,
            });
            await recordAudit(trx, ctx.clock, {
              ...audit,
              action: 'file.version_restored',
              objectType: 'file',
              objectId: id,
              objectLabel: `${file.title}.${row.format}`,
              details: { from_version: version, version: file.version + 1, size_bytes: copy.size },
            });
          });
      } catch (error) {
        await deleteReleasedObjects(ctx, [copy.key]);
        throw error;
      }
      return fileFor(actor, id);
    },
  };
}
