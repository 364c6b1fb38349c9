import { z } from 'zod';

/**
 * Several documents in one go (decision 182): each file is its own `POST /files` with the same
 * client-chosen `batch_id`; `POST /files/batches/{batch_id}/complete` ends the batch, and every
 * member told at once gets one mail for the whole batch.
 */

/** "1 Dokument", "3 Dokumente". */
export const documentCount = (n: number) => (n === 1 ? '1 Dokument' : `${n} Dokumente`);
/** "1 Person", "3 Personen". */
const personCount = (n: number) => (n === 1 ? '1 Person' : `${n} Personen`);

export const UPLOAD_BATCH_MESSAGES = {
  invalidBatchId: 'Die Kennung des Stapels (batch_id) muss eine UUID sein.',
  batchForeign:
    'Diesen Stapel hat jemand anderes begonnen. Bitte das Dokument in einem neuen Stapel hochladen.',
  notFound: 'Der Stapel wurde nicht gefunden.',
  /** The answer of the completion: how many documents, how many people get a mail now. */
  completed: (files: number, mails: number) =>
    mails === 0
      ? `${documentCount(files)} hochgeladen.`
      : `${documentCount(files)} hochgeladen; ${personCount(mails)} ${mails === 1 ? 'erhält' : 'erhalten'} eine E-Mail dazu.`,
  // The upload form's list of several documents.
  listLabel: 'Dokumente',
  waiting: 'Wartet',
  uploading: 'Wird hochgeladen …',
  succeeded: 'erfolgreich',
  remove: (fileName: string) => `„${fileName}“ entfernen`,
  titleOf: (fileName: string) => `Titel von ${fileName}`,
  submit: (n: number) => `${documentCount(n)} hochladen`,
  retry: (n: number) =>
    n === 1
      ? '1 fehlgeschlagenes Dokument erneut hochladen'
      : `${n} fehlgeschlagene Dokumente erneut hochladen`,
  finishWithout: 'Ohne die fehlgeschlagenen abschließen',
  completeFailed:
    'Die Dokumente sind hochgeladen, der Stapel konnte aber nicht abgeschlossen werden. Die E-Mails dazu gehen spätestens 10 Minuten nach dem letzten Dokument hinaus.',
  allSucceeded: (n: number) =>
    n === 1 ? '1 Dokument wurde erfolgreich hochgeladen' : `${n} Dokumente wurden erfolgreich hochgeladen`,
  someFailed: (failed: number, total: number) =>
    `${failed} von ${total} ${total === 1 ? 'Dokument' : 'Dokumenten'} ${failed === 1 ? 'konnte' : 'konnten'} nicht hochgeladen werden.`,
} as const;

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
