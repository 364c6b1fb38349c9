import { z } from 'zod';
import { optionalId, pageMetaSchema, rangeInOrder, timeField } from './audit.ts';

/**
 * Search (decision 128): documents, folders and events by title, documents and event information
 * files by the words inside them, and resolutions of the Beschlussbuch (decision 190) by number,
 * title and text. Only what the member may see; highlights are ranges into plain text, never markup.
 */
export const SEARCH_TYPES = ['file', 'folder', 'event', 'resolution'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const SEARCH_SORTS = ['relevance', 'date'] as const;
export const SEARCH_MIN_LENGTH = 2;
export const SEARCH_MAX_LENGTH = 200;
export const SEARCH_DEFAULT_PER_PAGE = 20;
export const SEARCH_MAX_PER_PAGE = 100;
export const SUGGEST_LIMIT = 8;

export const SEARCH_MESSAGES = {
  tooShort: `Bitte mindestens ${SEARCH_MIN_LENGTH} Zeichen eingeben.`,
  tooLong: `Der Suchbegriff darf höchstens ${SEARCH_MAX_LENGTH} Zeichen lang sein.`,
  type: 'Bitte Dateien, Ordner, Events oder Beschlüsse wählen.',
  sort: 'Bitte nach Relevanz oder Datum sortieren.',
  format: 'Bitte einen gültigen Dateityp wählen.',
  page: 'Bitte eine gültige Seitenzahl angeben.',
  perPage: `Bitte zwischen 1 und ${SEARCH_MAX_PER_PAGE} Treffer je Seite wählen.`,
  rangeReversed: 'Das Ende des Zeitraums darf nicht vor dem Anfang liegen.',
} as const;

const queryText = z
  .string({ error: SEARCH_MESSAGES.tooShort })
  .transform((value) => value.normalize('NFC').replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(SEARCH_MIN_LENGTH, { error: SEARCH_MESSAGES.tooShort })
      .max(SEARCH_MAX_LENGTH, { error: SEARCH_MESSAGES.tooLong }),
  );

const numberParam = (message: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .min(1, { error: message })
    .max(max, { error: message })
    .default(fallback);

export const searchQuerySchema = z
  .object({
    q: queryText,
    type: z.enum(SEARCH_TYPES, { error: SEARCH_MESSAGES.type }).optional(),
    format: z
      .string({ error: SEARCH_MESSAGES.format })
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9]{1,10}$/, { error: SEARCH_MESSAGES.format })
      .optional(),
    from: timeField,
    to: timeField,
    /** Only inside this folder and the folders below it. */
    folder_id: optionalId,
    sort: z.enum(SEARCH_SORTS, { error: SEARCH_MESSAGES.sort }).default('relevance'),
    page: numberParam(SEARCH_MESSAGES.page, 1_000_000, 1),
    per_page: numberParam(SEARCH_MESSAGES.perPage, SEARCH_MAX_PER_PAGE, SEARCH_DEFAULT_PER_PAGE),
  })
  .refine(rangeInOrder, { error: SEARCH_MESSAGES.rangeReversed, path: ['to'] });
export type SearchQuery = z.output<typeof searchQuerySchema>;
export type SearchParams = z.input<typeof searchQuerySchema>;

export const suggestQuerySchema = z.object({ q: queryText });

/** `[start, end)` offsets (UTF-16 code units, as JavaScript strings count) of a matched part. */
const rangesSchema = z.array(z.tuple([z.number().int(), z.number().int()]));

export const searchHitSchema = z.object({
  type: z.enum(SEARCH_TYPES),
  /**
   * Resolutions: `id` is the resolution's (the web opens `/beschluesse?id=<id>`), the title is its
   * number and title ("AR 2026/07 – Titel").
   */
  id: z.number().int(),
  title: z.string(),
  /** Where the query matched the title. */
  highlight: rangesSchema,
  /** A short piece of the text (documents, resolutions) around the first match, or null (title only). */
  snippet: z.object({ text: z.string(), ranges: rangesSchema }).nullable(),
  /**
   * The folder path for documents and folders ("/Aufsichtsrat/2026"), the committee's name for
   * resolutions ("Aufsichtsrat"), null for events.
   */
  breadcrumb: z.string().nullable(),
  folder_id: z.number().int().nullable(),
  /** File type of a document ("pdf"), null for folders and events. */
  format: z.string().nullable(),
  /** Last change (documents, folders), start (events) or establishment (resolutions), ISO 8601. */
  date: z.string(),
  /** Events: the place. */
  place: z.string().nullable(),
  /** Documents: whether the text inside could be read ("Inhalt nicht durchsuchbar" when false). */
  searchable: z.boolean().nullable(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchResponseSchema = z.object({ data: z.array(searchHitSchema), meta: pageMetaSchema });
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const suggestResponseSchema = z.object({
  data: z.array(
    searchHitSchema.pick({
      type: true,
      id: true,
      title: true,
      highlight: true,
      breadcrumb: true,
      folder_id: true,
      format: true,
    }),
  ),
});
export type SuggestResponse = z.infer<typeof suggestResponseSchema>;

/** A document's text state (`text_state` of GET /files/{id}): file dialog and page. */
export type TextState = NonNullable<import('./files.ts').StoredFile['text_state']>;
export const TEXT_STATE_LABELS: Record<TextState, string> = {
  pending: 'wird verarbeitet',
  done: 'durchsuchbar',
  empty: 'Inhalt nicht durchsuchbar',
  failed: 'nicht durchsuchbar',
  none: 'nur nach Titel durchsuchbar',
};
