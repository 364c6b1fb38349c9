import { z } from 'zod';
import { dataOf, idSchema } from './common.ts';
import { portalEventSchema } from './events.ts';
import { storedFileSchema } from './files.ts';

// The texts live apart from the schemas, so the explorer's first load carries them without zod's.
export { NEWS_MESSAGES } from './news-messages.ts';

/*
 * "Neu für Sie" (decision 131): what is new for the signed-in member, what waits for
 * their Kenntnisnahme and the next meetings. A document is new until the member opens or
 * downloads it, if it was added or its content replaced after their account existed and after
 * they last opened it (or marked it read).
 */

/** The start page lists at most this many new documents ("alle anzeigen" shows the rest). */
export const NEWS_FILES_LIMIT = 10;
/** The next events the start page lists. */
export const NEWS_EVENTS_LIMIT = 3;

/**
 * `GET /news`: up to ten newest new documents (newest content first) with the number of all new
 * ones, the documents waiting for the member's confirmation (earliest due date first, those
 * without one last) and the next three events the member can see, with their own answer.
 */
export const newsSchema = z.object({
  files: z.array(storedFileSchema),
  /** Number of all new documents the member can see (the list holds at most ten). */
  files_total: z.number().int(),
  acknowledgements: z.array(storedFileSchema),
  events: z.array(portalEventSchema),
});
export type News = z.infer<typeof newsSchema>;
export const newsResponseSchema = dataOf(newsSchema);
export type NewsResponse = z.infer<typeof newsResponseSchema>;

/**
 * `POST /news/read`: a folder (with everything below it) or, without `folder_id` (or without a
 * body), everything.
 */
export const markReadBodySchema = z.preprocess(
  (value) => value ?? {},
  z.strictObject({
    folder_id: z.optional(idSchema),
  }),
);
export type MarkReadBody = z.output<typeof markReadBodySchema>;

export const markReadResponseSchema = z.object({
  message: z.string(),
  /** Documents that were new and now are not. */
  marked: z.number().int(),
});
export type MarkReadResponse = z.infer<typeof markReadResponseSchema>;
