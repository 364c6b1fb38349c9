import type { DailyTask, MaintenanceContext } from '../../maintenance/daily-job.ts';
import { recordAudit } from '../audit/audit-log.service.ts';
import { deleteReleasedObjects } from '../../storage/released-objects.ts';
import { lockFolderTree } from '../../db/document-records.ts';
import { surplusVersions } from './versions.repository.ts';

const BATCH = 100;

/**
 * VERSIONS_KEEP (decision 125): per document only the newest this many old versions stay; older ones
 * go, oldest first, with an audit entry each. Unset keeps every version. Each batch deletes under
 * the folder-tree lock and only rows that are still there, so instances running it at once remove
 * and audit every version once.
 */
export async function pruneVersions(ctx: MaintenanceContext): Promise<number> {
  const keep = ctx.config.VERSIONS_KEEP;
  if (keep === undefined) return 0;
  let removed = 0;
  for (;;) {
    const keys = await ctx.db.kysely.transaction().execute(async (trx) => {
      await lockFolderTree(trx, ctx.db.dialect);
      const rows = await surplusVersions(trx, keep, BATCH);
      for (const row of rows) {
        await trx.deleteFrom('file_versions').where('id', '=', row.id).execute();
        await recordAudit(trx, ctx.clock, {
          actor: null,
          action: 'file.version_removed',
          objectType: 'file',
          objectId: row.file_id,
          objectLabel: `${row.title}.${row.format}`,
          details: { version: row.version, size_bytes: Number(row.size_bytes), keep },
        });
      }
      return rows.map((row) => row.storage_key);
    });
    removed += keys.length;
    await deleteReleasedObjects(ctx, keys);
    if (keys.length < BATCH) break;
  }
  if (removed > 0) ctx.logger.info({ removed, keep }, 'Alte Dateiversionen entfernt (VERSIONS_KEEP)');
  return removed;
}

export const versionTasks: readonly DailyTask[] = [
  { name: 'versions-keep', run: (ctx) => pruneVersions(ctx).then(() => undefined) },
];
