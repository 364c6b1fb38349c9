import { z } from 'zod';
import { dataOf, formBoolean, MAX_TEXT_LENGTH, msg, requiredText } from './common.ts';
import { idSchema } from './fields.ts';

/*
 * Meetings (decision 130): an event's Tagesordnung, Zu- und Absagen, the Sitzungsmappe,
 * the Protokoll and the personal calendar feed. Extends the events feature.
 */

export const AGENDA_LIMITS = {
  /** Main items and sub-items together. */
  items: 100,
  filesPerItem: 50,
  description: 5_000,
} as const;
export const ATTENDANCE_COMMENT_MAX = 500;
/** "Erinnerung senden" at most once per this many minutes per event. */
export const REMINDER_INTERVAL_MINUTES = 60;

export const ATTENDANCE_STATUSES = ['zugesagt', 'abgesagt', 'vielleicht'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
/** What the buttons and lists say for each answer. */
export const ATTENDANCE_LABELS: Record<AttendanceStatus, string> = {
  zugesagt: 'Zusage',
  abgesagt: 'Absage',
  vielleicht: 'Vielleicht',
};

export const MEETING_MESSAGES = {
  agendaSaved: 'Tagesordnung gespeichert',
  agendaTooLong: `Eine Tagesordnung hat höchstens ${AGENDA_LIMITS.items} Punkte.`,
  tooManyFiles: `Ein Tagesordnungspunkt hat höchstens ${AGENDA_LIMITS.filesPerItem} Dokumente.`,
  duplicateFile: 'Ein Dokument ist diesem Punkt schon zugeordnet.',
  unknownFile: 'Dieses Dokument gibt es nicht (mehr).',
  tooDeep: 'Unterpunkte können keine weiteren Unterpunkte haben.',
  attendanceSaved: 'Ihre Antwort wurde gespeichert',
  statusRequired: 'Bitte Zusage, Absage oder Vielleicht wählen.',
  reminderSent: (count: number) =>
    count === 1 ? 'Erinnerung an 1 Person gesendet' : `Erinnerung an ${count} Personen gesendet`,
  reminderNobody: 'Alle haben bereits geantwortet; es wurde keine Erinnerung gesendet.',
  reminderTooSoon: (time: string) =>
    `Eine Erinnerung wurde vor weniger als einer Stunde gesendet. Die nächste ist ab ${time} Uhr möglich.`,
  minutesSaved: 'Protokoll veröffentlicht',
  minutesRemoved: 'Protokoll entfernt',
  minutesRequired: 'Bitte eine Datei für das Protokoll wählen.',
  minutesRecipients: 'Bitte wählen: alle Mitglieder der Rollen oder nur, wer zugesagt hat.',
  minutesFuture:
    'Die Sitzung hat noch nicht begonnen. Bitte bestätigen Sie, dass das Protokoll trotzdem veröffentlicht werden soll.',
  minutesConfirmFlag: 'Bitte die Veröffentlichung mit ja oder nein bestätigen.',
  bookFailed: 'Die Sitzungsmappe konnte nicht erstellt werden. Bitte versuchen Sie es erneut.',
  bookBusy: 'Gerade werden viele Sitzungsmappen erstellt. Bitte versuchen Sie es in einigen Sekunden erneut.',
  bookInProgress:
    'Ihre Sitzungsmappe wird noch erstellt oder heruntergeladen. Bitte warten Sie, bis dieser Download abgeschlossen ist.',
  feedCreated: 'Neue Kalender-Adresse erzeugt. Die bisherige gilt nicht mehr.',
  feedRevoked: 'Kalender-Abonnement beendet. Die Adresse gilt nicht mehr.',
} as const;

const optionalText = (field: string, max: number) =>
  z
    .string()
    .trim()
    .normalize('NFC')
    .max(max, { error: msg.max(field, max) })
    .default('');

/** A document as an agenda item lists it (what the file dialog needs to open or download it). */
export const agendaFileSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  format: z.string(),
  mime_type: z.string(),
  /** Download key: `GET /api/v1/download/{external}`. */
  external: z.string(),
  size: z.number(),
  size_bytes: z.number().int(),
  updated_at: z.string(),
  /** Admins only: names of the event's roles that cannot see this document. */
  unseen_by: z.array(z.string()).optional(),
});
export type AgendaFile = z.infer<typeof agendaFileSchema>;

export const agendaItemSchema = z.object({
  id: z.number().int(),
  /** Null for a main item; the main item's id for a sub-item. */
  parent_id: z.number().int().nullable(),
  /** Order in the whole agenda, from 0 (main items and their sub-items as read). */
  position: z.number().int(),
  /** "1", "2", "2.1". */
  number: z.string(),
  title: z.string(),
  description: z.string(),
  presenter: z.string(),
  files: z.array(agendaFileSchema),
});
export type AgendaItem = z.infer<typeof agendaItemSchema>;
export const agendaResponseSchema = dataOf(z.array(agendaItemSchema));
export type AgendaResponse = z.infer<typeof agendaResponseSchema>;

const agendaItemFields = {
  title: requiredText('Titel'),
  description: optionalText('Beschreibung', AGENDA_LIMITS.description),
  presenter: optionalText('Vortragende Person', MAX_TEXT_LENGTH),
  file_ids: z
    .array(idSchema)
    .max(AGENDA_LIMITS.filesPerItem, { error: MEETING_MESSAGES.tooManyFiles })
    .refine((ids) => new Set(ids).size === ids.length, { error: MEETING_MESSAGES.duplicateFile })
    .default([]),
};
const agendaSubItemInputSchema = z.strictObject({
  ...agendaItemFields,
  /** Two levels only: a sub-item's own sub-items are refused with a message that says so. */
  children: z.array(z.unknown()).max(0, { error: MEETING_MESSAGES.tooDeep }).optional(),
});
export const agendaItemInputSchema = z.strictObject({
  ...agendaItemFields,
  children: z.array(agendaSubItemInputSchema).default([]),
});
export type AgendaItemInput = z.input<typeof agendaItemInputSchema>;

/** `PUT /events/{id}/agenda`: the whole ordered list, replaced in one transaction. */
export const putAgendaBodySchema = z.strictObject({
  items: z
    .array(agendaItemInputSchema)
    .refine(
      (items) => items.reduce((sum, item) => sum + 1 + item.children.length, 0) <= AGENDA_LIMITS.items,
      {
        error: MEETING_MESSAGES.agendaTooLong,
      },
    ),
});
export type PutAgendaBody = z.output<typeof putAgendaBodySchema>;
export type PutAgendaInput = z.input<typeof putAgendaBodySchema>;

/** `POST /events/{id}/agenda/check`: which of the event's roles would not see these documents. */
export const agendaCheckBodySchema = z.strictObject({
  file_ids: z.array(idSchema).min(1).max(AGENDA_LIMITS.filesPerItem),
});
export const agendaCheckResponseSchema = dataOf(
  z.array(z.object({ file_id: z.number().int(), title: z.string(), unseen_by: z.array(z.string()) })),
);
export type AgendaCheckResponse = z.infer<typeof agendaCheckResponseSchema>;

export const attendanceStatusField = z.enum(ATTENDANCE_STATUSES, { error: MEETING_MESSAGES.statusRequired });

/** `PUT /events/{id}/attendance`: the signed-in member's own answer. */
export const putAttendanceBodySchema = z.strictObject({
  status: attendanceStatusField,
  comment: optionalText('Kommentar', ATTENDANCE_COMMENT_MAX),
});
export type PutAttendanceBody = z.output<typeof putAttendanceBodySchema>;
export type PutAttendanceInput = z.input<typeof putAttendanceBodySchema>;

export const myAttendanceSchema = z.object({
  status: attendanceStatusField,
  comment: z.string(),
  answered_at: z.string(),
});
export type MyAttendance = z.infer<typeof myAttendanceSchema>;
export const myAttendanceResponseSchema = dataOf(myAttendanceSchema);

export const attendanceEntrySchema = z.object({
  user: z.object({
    id: z.number().int(),
    title: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    roles: z.array(z.string()),
  }),
  /** Null: no answer yet. */
  status: attendanceStatusField.nullable(),
  comment: z.string(),
  answered_at: z.string().nullable(),
});
export type AttendanceEntry = z.infer<typeof attendanceEntrySchema>;

/** `GET /events/{id}/attendance` (admins): everyone in the event's roles, with counts. */
export const attendanceListResponseSchema = dataOf(
  z.object({
    entries: z.array(attendanceEntrySchema),
    counts: z.object({
      zugesagt: z.number().int(),
      abgesagt: z.number().int(),
      vielleicht: z.number().int(),
      offen: z.number().int(),
    }),
    /** ISO 8601 UTC of the last reminder, or null. */
    reminder_sent_at: z.string().nullable(),
    /** ISO 8601 UTC from which the next reminder may go out, or null if now. */
    reminder_available_at: z.string().nullable(),
  }),
);
export type AttendanceList = z.infer<typeof attendanceListResponseSchema>['data'];

export const reminderResponseSchema = z.object({ message: z.string(), sent: z.number().int() });

/**
 * `GET /events/{id}/book.pdf`: the Sitzungsmappe, one PDF built for the signed-in member from what
 * they may see (decision 130). 404 when the event is hidden from them; 429
 * (`MEETING_MESSAGES.bookInProgress`) while the member's previous book is still being built or
 * downloaded (one at a time per member, decision 149); 503 with `Retry-After`
 * (`MEETING_MESSAGES.bookBusy`) while too many books are being built, or with
 * `MEETING_MESSAGES.bookFailed` when none could be made.
 */
export const MEETING_BOOK = {
  mediaType: 'application/pdf',
  /** Seconds a client waits before asking again after `bookBusy` or `bookInProgress`. */
  retryAfterSeconds: 5,
} as const;

/** The file name without `.pdf`: "Sitzungsmappe – {Titel} – {TT.MM.JJJJ}" (date of the meeting, Berlin). */
export const meetingBookName = (title: string, date: string) => `Sitzungsmappe – ${title} – ${date}`;

/** The answer's body for the OpenAPI document: the PDF, streamed with its length. */
export const meetingBookResponseSchema = z
  .any()
  .describe(
    'Die Sitzungsmappe als PDF: Deckblatt, Tagesordnung mit Seitenzahlen, Links und Lesezeichen, jedes ' +
      'sichtbare PDF der Tagesordnung, „Weitere Unterlagen“; auf jeder Seite „Vertraulich – Name – Datum“',
  );

/** The Protokoll as an event carries it. */
export const minutesSchema = z.object({
  /** Download key: `GET /api/v1/minutes/{external}`. */
  external: z.string(),
  format: z.string(),
  size_bytes: z.number().int(),
  published_at: z.string(),
});
export type Minutes = z.infer<typeof minutesSchema>;

/** The personal calendar feed, as the account page shows it. */
export const calendarFeedSchema = z.object({
  active: z.boolean(),
  created_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export const calendarFeedResponseSchema = dataOf(calendarFeedSchema);
/** Answer of creating a feed address: the only time the full address is shown. */
export const calendarFeedCreatedSchema = dataOf(z.object({ url: z.string(), created_at: z.string() }));

export const calendarTokenParamsSchema = z.object({
  token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32,64}$/)
    .max(64),
});

// --- Attendance export and the Protokoll upload (server part of attendance and minutes) --------

/** Columns of `GET /events/{id}/attendance.csv`. */
export const ATTENDANCE_CSV_HEADER = [
  'Nachname',
  'Vorname',
  'E-Mail',
  'Rollen',
  'Antwort',
  'Kommentar',
  'Beantwortet am',
] as const;
/** What the list and the export say for a member without an answer. */
export const ATTENDANCE_OPEN_LABEL = 'Offen';

export const MINUTES_MESSAGES = {
  none: 'Für dieses Event ist kein Protokoll veröffentlicht.',
} as const;

/**
 * `POST /events/{id}/minutes` as JSON: the Protokoll as a data URL in `data` (or `file`); as
 * multipart the file is the part `file`. No other fields.
 */
/** Who hears of the first Protokoll (decision 181): those who said Zusage, or every invitee. */
export const MINUTES_RECIPIENTS = ['zugesagt', 'alle'] as const;
export type MinutesRecipients = (typeof MINUTES_RECIPIENTS)[number];

export const minutesUploadBodySchema = z.strictObject({
  data: z.string().optional(),
  file: z.string().optional(),
  recipients: z.enum(MINUTES_RECIPIENTS, { error: MEETING_MESSAGES.minutesRecipients }).default('zugesagt'),
  /** Required for a meeting that has not begun yet. */
  confirm_future: formBoolean(MEETING_MESSAGES.minutesConfirmFlag).default(false),
});
export type MinutesUploadBody = z.output<typeof minutesUploadBodySchema>;

/** Answer of publishing (or replacing) the Protokoll. */
export const minutesResponseSchema = z.object({ message: z.string(), data: minutesSchema });
export type MinutesResponse = z.infer<typeof minutesResponseSchema>;
