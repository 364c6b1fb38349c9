import { z } from 'zod';
import { dataOf, formBoolean } from './common.ts';

/*
 * Kenntnisnahme (decision 131): an admin asks every member who can see a document to
 * confirm that they have read it; the admins follow who has and who has not.
 */

/** "Erinnerung senden" at most once per this many hours per document. */
export const ACKNOWLEDGEMENT_REMINDER_HOURS = 24;

export { ACKNOWLEDGEMENT_MESSAGES } from './file-messages.ts';
import { ACKNOWLEDGEMENT_MESSAGES } from './file-messages.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `YYYY-MM-DD` names a day of the calendar (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 2000 &&
    year <= 2100 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/** `acknowledgement_due`: a day `YYYY-MM-DD`; `""` and `null` remove it. */
export const acknowledgementDueField = z.preprocess(
  (value) => (value === '' ? null : typeof value === 'string' ? value.trim() : value),
  z
    .string({ error: ACKNOWLEDGEMENT_MESSAGES.dueInvalid })
    .max(10, { error: ACKNOWLEDGEMENT_MESSAGES.dueInvalid })
    .refine(isCalendarDate, { error: ACKNOWLEDGEMENT_MESSAGES.dueInvalid })
    .nullable(),
);

/** The Kenntnisnahme fields of the upload and edit payloads (both readings, JSON and multipart). */
export const acknowledgementFields = {
  /** Every member who can see the document is asked to confirm it. */
  acknowledgement_required: formBoolean(ACKNOWLEDGEMENT_MESSAGES.requiredInvalid).optional(),
  /** Optional last day (Europe/Berlin) for the confirmation. */
  acknowledgement_due: acknowledgementDueField.optional(),
};

/**
 * Edit only, with a new content: whether the members must confirm again (default yes while a
 * Kenntnisnahme is required). Without a new content it changes nothing.
 */
export const acknowledgementResetField = formBoolean(ACKNOWLEDGEMENT_MESSAGES.resetInvalid).optional();

/** The Kenntnisnahme as every file answer carries it. */
export const fileAcknowledgementFields = {
  /** Whether the members who can see the document are asked to confirm it. */
  acknowledgement_required: z.boolean(),
  /** Last day for the confirmation (`YYYY-MM-DD`, Europe/Berlin), or null. */
  acknowledgement_due: z.string().nullable(),
  /**
   * When the signed-in member confirmed the current request (ISO 8601 UTC), or null. A content
   * replaced with `acknowledgement_reset` asks again, so an earlier confirmation no longer counts.
   */
  acknowledged_at: z.string().nullable(),
};

const personFields = {
  id: z.number().int(),
  title: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
};

/** One member who can see the document, with their confirmation or none yet. */
export const acknowledgementEntrySchema = z.object({
  user: z.object(personFields),
  /** ISO 8601 UTC, or null while pending. */
  confirmed_at: z.string().nullable(),
});
export type AcknowledgementEntry = z.infer<typeof acknowledgementEntrySchema>;

/**
 * `GET /files/{id}/acknowledgements` (admins): everyone who can see the document now (roles read
 * at the time of the request), confirmed first by time, then the pending by name.
 */
export const acknowledgementListSchema = z.object({
  file: z.object({
    id: z.number().int(),
    title: z.string(),
    format: z.string(),
    acknowledgement_required: z.boolean(),
    acknowledgement_due: z.string().nullable(),
    /** When the current request started (upload, switching it on, or a replacement that asked again). */
    requested_at: z.string().nullable(),
  }),
  entries: z.array(acknowledgementEntrySchema),
  counts: z.object({
    confirmed: z.number().int(),
    pending: z.number().int(),
    total: z.number().int(),
  }),
  /** Confirmed of total, rounded down to whole percent (0 when nobody can see it). */
  percent: z.number().int(),
  /** ISO 8601 UTC of the last reminder, or null. */
  reminder_sent_at: z.string().nullable(),
  /** ISO 8601 UTC from which the next reminder may go out, or null if now. */
  reminder_available_at: z.string().nullable(),
});
export type AcknowledgementList = z.infer<typeof acknowledgementListSchema>;
export const acknowledgementListResponseSchema = dataOf(acknowledgementListSchema);

/** `POST /files/{id}/acknowledgement`: the member's confirmation. */
export const acknowledgementResponseSchema = z.object({
  message: z.string(),
  data: z.object({ confirmed_at: z.string() }),
});
export type AcknowledgementResponse = z.infer<typeof acknowledgementResponseSchema>;

/** `POST /files/{id}/acknowledgements/reminder`. */
export const acknowledgementReminderResponseSchema = z.object({
  message: z.string(),
  sent: z.number().int(),
});

/** Columns of `GET /files/{id}/acknowledgements.csv`. */
export const ACKNOWLEDGEMENT_CSV_HEADER = [
  'Nachname',
  'Vorname',
  'E-Mail',
  'Rollen',
  'Status',
  'Bestätigt am',
] as const;
