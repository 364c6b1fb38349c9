import { z } from 'zod';
import { dataOf, idSchema, requiredText } from './common.ts';
import { isCalendarDate } from './committees.ts';
import { CHOICES, RESOLUTION_RESULTS, VOTE_MODES } from './resolutions.ts';

/**
 * The Beschlussbuch (decision 190): established resolutions, never changed, each with its hash
 * in the committee's chain, and their follow-up (Umsetzung), which lives outside the chain.
 */

export const FOLLOW_UP_STATES = ['offen', 'erledigt'] as const;
export type FollowUpState = (typeof FOLLOW_UP_STATES)[number];
export const FOLLOW_UP_STATE_LABELS: Record<FollowUpState, string> = {
  offen: 'Offen',
  erledigt: 'Erledigt',
};

export const RESOLUTION_REGISTER_MESSAGES = {
  notFound: 'Diesen Beschluss gibt es nicht.',
  responsibleNotFound: 'Die verantwortliche Person wurde nicht gefunden.',
  dateInvalid: 'Fällig am: bitte ein Datum im Format JJJJ-MM-TT angeben.',
  onlyOffice: 'Die Umsetzung pflegen der Vorsitz, die Schriftführung des Gremiums und Admins.',
} as const;

const count = z.number().int();

export const followUpSchema = z.object({
  responsible: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  due_on: z.string().nullable(),
  status: z.enum(FOLLOW_UP_STATES),
  note: z.string(),
  overdue: z.boolean(),
  updated_at: z.string(),
});
export type FollowUp = z.infer<typeof followUpSchema>;

export const resolutionSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  committee: z.object({ id: z.number().int(), name: z.string() }),
  term_id: z.number().int(),
  motion_id: z.number().int().nullable(),
  title: z.string(),
  text: z.string(),
  mode: z.enum(VOTE_MODES).nullable(),
  procedure: z.string().nullable(),
  /** The meeting the resolution came from; null for an Umlaufverfahren. */
  event_id: z.number().int().nullable(),
  result: z.enum(RESOLUTION_RESULTS),
  /** The established sentence: "Angenommen mit 5 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung." */
  reason: z.string(),
  counts: z.object({ ja: count, nein: count, enthaltung: count }).nullable(),
  names: z.array(z.object({ name: z.string(), choice: z.enum(CHOICES) })).nullable(),
  conflicts: z.array(z.string()),
  /** The linked documents the member may see. */
  files: z.array(z.object({ id: z.number().int(), name: z.string() })),
  established_at: z.string(),
  established_by: z.string(),
  corrects: z.object({ id: z.number().int(), number: z.string() }).nullable(),
  hash: z.string(),
  previous_hash: z.string().nullable(),
  follow_up: followUpSchema.nullable(),
});
export type Resolution = z.infer<typeof resolutionSchema>;
export const resolutionResponseSchema = dataOf(resolutionSchema);
export const resolutionListResponseSchema = z.object({ data: z.array(resolutionSchema) });

const numberQuery = (field: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${field}: bitte eine Zahl angeben.` })
    .int({ error: `${field}: bitte eine ganze Zahl angeben.` })
    .min(min, { error: `${field}: bitte eine Zahl ab ${min} angeben.` })
    .max(max, { error: `${field}: bitte eine Zahl bis ${max} angeben.` });

export const resolutionListQuerySchema = z.object({
  committee_id: numberQuery('Gremium', 1, 2_147_483_647).optional(),
  term_id: numberQuery('Amtsperiode', 1, 2_147_483_647).optional(),
  year: numberQuery('Jahr', 1900, 2200).optional(),
  result: z.enum(RESOLUTION_RESULTS, { error: 'Bitte ein gültiges Ergebnis wählen.' }).optional(),
  q: z.string().trim().max(200, { error: 'Der Suchbegriff ist zu lang.' }).optional(),
  /** The office's list of follow-ups past their due date. */
  overdue: z.enum(['1', 'true']).optional(),
});
export type ResolutionListQuery = z.infer<typeof resolutionListQuerySchema>;

export const followUpBodySchema = z.object({
  responsible_id: z.union([idSchema, z.null()]),
  due_on: z
    .string({ error: RESOLUTION_REGISTER_MESSAGES.dateInvalid })
    .trim()
    .refine(isCalendarDate, { error: RESOLUTION_REGISTER_MESSAGES.dateInvalid })
    .nullable(),
  status: z.enum(FOLLOW_UP_STATES, { error: 'Bitte offen oder erledigt wählen.' }),
  note: z.union([requiredText('Notiz', 1, 5000), z.literal('')]),
});
export type FollowUpBody = z.infer<typeof followUpBodySchema>;

export const correctionBodySchema = z.object({
  text: requiredText('Beschlusstext', 10, 5000),
  reason: requiredText('Grund der Berichtigung', 3, 2000),
});

/** "Bekanntgabe der Umlaufbeschlüsse seit der letzten Sitzung": an agenda item ready to insert. */
export const circularAnnouncementSchema = z.object({
  title: z.string(),
  description: z.string(),
  resolutions: z.array(
    z.object({
      id: z.number().int(),
      number: z.string(),
      title: z.string(),
      result: z.enum(RESOLUTION_RESULTS),
    }),
  ),
});
export type CircularAnnouncement = z.infer<typeof circularAnnouncementSchema>;
export const circularAnnouncementResponseSchema = dataOf(circularAnnouncementSchema);
