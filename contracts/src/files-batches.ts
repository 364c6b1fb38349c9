import { z } from 'zod';

/**
 * Several documents in one go (decision 182): each file is its own `POST /files` with the same
 * client-chosen `batch_id`; `POST /files/batches/{batch_id}/complete` ends the batch, and every
 * member told at once gets one mail for the whole batch.
 */

export { documentCount, UPLOAD_BATCH_MESSAGES } from './file-messages.ts';
import { UPLOAD_BATCH_MESSAGES } from './file-messages.ts';

/** A batch id: a UUID (lower case, so that one batch has one spelling). */
export const batchIdSchema = z
  .string({ error: UPLOAD_BATCH_MESSAGES.invalidBatchId })
  .trim()
  .toLowerCase()
  .pipe(z.uuid({ error: UPLOAD_BATCH_MESSAGES.invalidBatchId }));

/** `batch_id` of `POST /files`: missing, `null` and `''` (an empty form field) mean "no batch". */
export const batchIdField = z
  .preprocess((value) => (value === '' || value === null ? undefined : value), batchIdSchema.optional())
  .describe('Optional: die UUID eines Stapels; alle Dokumente eines Stapels ergeben je Person eine E-Mail');

export const uploadBatchParamsSchema = z.object({ batch_id: batchIdSchema });
export type UploadBatchParams = z.infer<typeof uploadBatchParamsSchema>;

export const uploadBatchSchema = z.object({
  id: z.string(),
  /** Documents uploaded in this batch. */
  files: z.number().int(),
  /** Mails composed at the completion (members who chose "sofort"; digests keep their own). */
  mails: z.number().int(),
  /** ISO 8601 UTC. */
  completed_at: z.string(),
});
export type UploadBatch = z.infer<typeof uploadBatchSchema>;

export const uploadBatchResponseSchema = z.object({ message: z.string(), batch: uploadBatchSchema });
export type UploadBatchResponse = z.infer<typeof uploadBatchResponseSchema>;
