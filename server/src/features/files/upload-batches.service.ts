import type { Kysely, Transaction } from 'kysely';
import { UPLOAD_BATCH_MESSAGES, type UploadBatchResponse } from '@gremienportal/contracts/files-batches';
import type { AppContext } from '../../context.ts';
import { DAY } from '../../clock.ts';
import type { Database } from '../../db/schema.ts';
import { loadFiles, loadFolders } from '../../db/document-records.ts';
import { membersWithRoles } from '../../db/member-lists.ts';
import { invalidField, notFound } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import type { DailyTask } from '../../maintenance/daily-job.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeFile } from '../../policies/files.policy.ts';
import { compareTitles, treesByViewer } from '../../policies/folders.policy.ts';
import { filesByFolder } from '../notifications/files-by-folder.ts';
import { viewerOfRoles } from '../../policies/principal.ts';
import { fileBatchMail } from './files.mails.ts';
import * as repo from './upload-batches.repository.ts';

/** A batch nobody completes is completed this long after its last document (decision 182). */
export const BATCH_QUIET_MS = 10 * 60_000;
/** How long a completed batch is remembered: a repeated completion is answered, a late document joins it. */
const BATCH_KEEP_DAYS = 7;
/** Batches completed per round of the mail sender; the next round takes the rest. */
const QUIET_BATCHES_PER_ROUND = 20;

/** What the completion needs: the server's context, or the mail sender's job's part of it. */
export type BatchContext = Pick<AppContext, 'db' | 'clock' | 'config'>;

const refused = () => invalidField('batch_id', UPLOAD_BATCH_MESSAGES.batchForeign);

/**
 * Before a byte of the document is stored: another admin's batch refuses it (the document's
 * transaction checks again, under the batch row's lock).
 */
export async function checkUploadBatch(db: Kysely<Database>, actor: Actor, batchId: string): Promise<void> {
  const batch = await repo.findBatch(db, batchId);
  if (batch && batch.created_by !== actor.principal.id) throw refused();
}

/**
 * In the document's transaction: begins the batch with its first document or adds to it. A document
 * after the completion (a slow one the quiet period did not wait for) opens the batch again: its
 * members get a second mail with what came late, not none.
 */
export async function joinUploadBatch(
  ctx: Pick<AppContext, 'clock'>,
  trx: Transaction<Database>,
  actor: Actor,
  batchId: string,
): Promise<void> {
  const at = ctx.clock.now().toISOString();
  if (!(await repo.joinBatch(trx, { id: batchId, userId: actor.principal.id, at }))) throw refused();
}

/**
 * Completes the batch in one transaction: the claim, the removal of what it owed and one mail per
 * member for the documents they may still see (asked now, as a digest does: a document deleted,
 * moved or hidden meanwhile is left out). Another instance completing it at the same time, or any
 * later call, finds the claim and sends nothing. Returns whether this call completed it.
 */
async function completeBatch(ctx: BatchContext, batchId: string): Promise<boolean> {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    if (!(await repo.claimBatch(trx, batchId, ctx.clock.now().toISOString()))) return false;
    const notices = await repo.takeNotices(trx, batchId);
    if (notices.length === 0) return true;
    const members = await membersWithRoles(trx, (eb) =>
      eb('users.id', 'in', [...new Set(notices.map((notice) => notice.user_id))]),
    );
    const files = new Map(
      (await loadFiles(trx, { ids: [...new Set(notices.map((notice) => notice.file_id))] })).map((file) => [
        file.id,
        file,
      ]),
    );
    const treeOf = treesByViewer(await loadFolders(trx));
    const mails = [];
    for (const member of members) {
      const tree = treeOf(viewerOfRoles(member.roles));
      const seen = notices
        .filter((notice) => notice.user_id === member.id)
        .flatMap((notice) => {
          const file = files.get(notice.file_id);
          return file && canSeeFile(tree, file) ? [file] : [];
        })
        .sort(compareTitles);
      if (seen.length === 0) continue;
      const folders = filesByFolder(seen, tree, (file) => ({
        id: file.id,
        title: file.title,
        format: file.format,
        sizeBytes: Number(file.size_bytes),
      }));
      mails.push(fileBatchMail(member, folders, ctx.config.PUBLIC_URL));
    }
    await enqueueMail(trx, ctx.clock, mails);
    await repo.addMails(trx, batchId, mails.length);
    return true;
  });
}

/**
 * Completes the batches whose last document arrived a quiet period ago: a job of the mail sender,
 * so their mails go out in the same round. Returns how many it completed.
 */
export async function completeQuietBatches(ctx: BatchContext): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - BATCH_QUIET_MS).toISOString();
  let completed = 0;
  for (const id of await repo.quietBatches(ctx.db.kysely, before, QUIET_BATCHES_PER_ROUND)) {
    if (await completeBatch(ctx, id)) completed += 1;
  }
  return completed;
}

/** The daily maintenance's part: completed batches are forgotten after a week. */
export const uploadBatchTasks: readonly DailyTask[] = [
  {
    name: 'upload-batches',
    run: async (ctx) => {
      const before = new Date(ctx.clock.now().getTime() - BATCH_KEEP_DAYS * DAY).toISOString();
      const removed = await repo.deleteCompletedBefore(ctx.db.kysely, before);
      if (removed > 0) ctx.logger.info({ removed }, 'Abgeschlossene Stapel entfernt');
    },
  },
];

export function uploadBatchesService(ctx: AppContext) {
  return {
    /**
     * `POST /files/batches/{batch_id}/complete`: only the admin who began the batch; an unknown
     * batch and another's both answer 404. Completing again answers the same and sends nothing.
     */
    async complete(actor: Actor, batchId: string): Promise<UploadBatchResponse> {
      const mine = async () => {
        const batch = await repo.findBatch(ctx.db.kysely, batchId);
        if (!batch || batch.created_by !== actor.principal.id) throw notFound(UPLOAD_BATCH_MESSAGES.notFound);
        return batch;
      };
      if ((await mine()).completed_at === null) await completeBatch(ctx, batchId);
      const batch = await mine();
      return {
        message: UPLOAD_BATCH_MESSAGES.completed(batch.files, batch.mails),
        batch: { id: batch.id, files: batch.files, mails: batch.mails, completed_at: batch.completed_at! },
      };
    },
  };
}
