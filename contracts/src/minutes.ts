import { z } from 'zod';
import { dataOf, idSchema } from './common.ts';
import { msg } from './rules.ts';

/**
 * Niederschriften (decision 193): a structured document drafted from a meeting's agenda, saved in
 * versions, reviewed, signed and sealed. Section texts are Markdown (headings, paragraphs, lists,
 * bold, italic), never HTML: every view shows markup as text.
 */

export const MEETING_FORMS = ['praesenz', 'virtuell', 'hybrid', 'gestreckt'] as const;
export type MeetingForm = (typeof MEETING_FORMS)[number];
export const MEETING_FORM_LABELS: Record<MeetingForm, string> = {
  praesenz: 'Präsenzsitzung',
  virtuell: 'Virtuelle Sitzung',
  hybrid: 'Hybride Sitzung',
  gestreckt: 'Gestreckte Versammlung',
};

export const MINUTES_STATES = ['entwurf', 'abstimmung', 'unterschrift', 'unterzeichnet'] as const;
export type MinutesState = (typeof MINUTES_STATES)[number];
export const MINUTES_STATE_LABELS: Record<MinutesState, string> = {
  entwurf: 'Entwurf',
  abstimmung: 'In Abstimmung',
  unterschrift: 'Zur Unterschrift',
  unterzeichnet: 'Unterzeichnet',
};

export const SECTION_KINDS = ['item', 'bekanntgabe', 'einberufung', 'teilnehmer'] as const;

export const MINUTES_LIMITS = {
  /** Characters of one section's text. */
  body: 20_000,
  /** Characters of all section texts together. */
  total: 200_000,
  /** Names in one attendance list. */
  names: 1_000,
} as const;

export const MINUTES_MESSAGES = {
  notFound: 'Diese Niederschrift gibt es nicht.',
  stale:
    'Die Niederschrift wurde inzwischen von jemand anderem gespeichert. Bitte die neue Fassung übernehmen und Ihre Änderung erneut eintragen.',
  notDraft: 'Die Niederschrift kann nur als Entwurf oder in der Abstimmungsrunde geändert werden.',
  exists: 'Für diese Sitzung und dieses Gremium gibt es bereits eine Niederschrift.',
  committeeRequired: 'Diese Sitzung lädt mehrere Gremien ein: bitte das Gremium wählen.',
  noCommittee: 'Diese Sitzung gehört zu keinem Gremium.',
  onlyWriters: 'Die Niederschrift schreiben die Protokollführung und der Vorsitz des Gremiums.',
  unknownSection: 'Diesen Abschnitt gibt es in der Niederschrift nicht.',
  tooLong: `Die Niederschrift ist zu lang (höchstens ${MINUTES_LIMITS.total.toLocaleString('de-DE')} Zeichen in allen Abschnitten).`,
} as const;

const line = (field: string, max = 300) =>
  z
    .string({ error: msg.required(field) })
    .trim()
    .normalize('NFC')
    .max(max, { error: msg.max(field, max) });
const names = (field: string) =>
  z
    .array(line(field))
    .max(MINUTES_LIMITS.names, { error: `${field}: höchstens ${MINUTES_LIMITS.names} Namen.` });
const clock = (field: string) =>
  z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: `${field}: bitte eine Uhrzeit wie 18:30 angeben.` })
    .nullable();

export const minutesHeaderSchema = z.object({
  form: z.enum(MEETING_FORMS, { error: 'Bitte die Form der Sitzung wählen.' }),
  /** `YYYY-MM-DD`. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Datum: bitte im Format JJJJ-MM-TT angeben.' }),
  start: clock('Beginn'),
  end: clock('Ende'),
  place: line('Ort'),
  chair: line('Vorsitz'),
  secretary: line('Protokollführung'),
});
export type MinutesHeader = z.infer<typeof minutesHeaderSchema>;

export const attendanceListsSchema = z.object({
  present: names('Anwesend'),
  excused: names('Entschuldigt'),
  absent: names('Abwesend'),
  guests: names('Gäste'),
});
export type AttendanceLists = z.infer<typeof attendanceListsSchema>;

/** A resolution as the Niederschrift quotes it: verbatim from the Beschlussbuch, not editable. */
export const quotedResolutionSchema = z.object({
  resolution_id: z.number().int().nullable(),
  motion_id: z.number().int(),
  number: z.string().nullable(),
  title: z.string(),
  text: z.string(),
  result: z.string(),
  counts: z.string().nullable(),
  names: z.string().nullable(),
  conflicts: z.string().nullable(),
});
export type QuotedResolution = z.infer<typeof quotedResolutionSchema>;

export const minutesSectionSchema = z.object({
  /** Stable within the Niederschrift: `item-12`, `bekanntgabe`, `einberufung`, `teilnehmer`. */
  key: z.string(),
  kind: z.enum(SECTION_KINDS),
  number: z.string(),
  title: z.string(),
  documents: z.array(z.object({ id: z.number().int(), title: z.string() })),
  body: z.string(),
  resolutions: z.array(quotedResolutionSchema),
});
export type MinutesSection = z.infer<typeof minutesSectionSchema>;

/** What a version stores. */
export const minutesContentSchema = z.object({
  header: minutesHeaderSchema,
  attendance: attendanceListsSchema,
  sections: z.array(minutesSectionSchema),
});
export type MinutesContent = z.infer<typeof minutesContentSchema>;

export const minutesSchema = z.object({
  id: z.number().int(),
  event: z.object({ id: z.number().int(), title: z.string() }),
  committee: z.object({ id: z.number().int(), name: z.string() }),
  kind: z.enum(['niederschrift', 'nachtrag']),
  state: z.enum(MINUTES_STATES),
  version: z.number().int(),
  saved_at: z.string(),
  saved_by: z.string().nullable(),
  content: minutesContentSchema,
});
export type Minutes = z.infer<typeof minutesSchema>;
export const minutesResponseSchema = dataOf(minutesSchema);

export const createMinutesBodySchema = z.object({ committee_id: z.optional(idSchema) });

/** A save: the version it was based on, the header, the attendance and the section texts by key. */
export const saveMinutesBodySchema = z.object({
  version: z.number({ error: 'Bitte die Fassung angeben, auf der die Änderung beruht.' }).int().min(1),
  header: minutesHeaderSchema,
  attendance: attendanceListsSchema,
  bodies: z
    .record(
      z.string().max(60),
      z
        .string()
        .normalize('NFC')
        .max(MINUTES_LIMITS.body, { error: msg.max('Abschnitt', MINUTES_LIMITS.body) }),
    )
    .refine(
      (bodies) => Object.values(bodies).reduce((sum, text) => sum + text.length, 0) <= MINUTES_LIMITS.total,
      {
        error: MINUTES_MESSAGES.tooLong,
      },
    ),
});
export type SaveMinutesBody = z.infer<typeof saveMinutesBodySchema>;
