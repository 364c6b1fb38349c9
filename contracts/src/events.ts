// Over 300 lines because event times (ISO with or without zone, Berlin wall clock) and the
// create, update and response schemas belong together; the time parsing is most of it.
import { z } from 'zod';
import {
  INVISIBLE_CHARACTERS,
  MAX_DESCRIPTION_LENGTH,
  MAX_TEXT_LENGTH,
  MIN_NAME_LENGTH,
  formBoolean,
  mixesScripts,
  msg,
} from './common.ts';
import { minutesSchema, myAttendanceSchema } from './meetings.ts';

/** Every event time a person reads or types is wall-clock time in this zone. */
export const EVENT_TIME_ZONE = 'Europe/Berlin';
/** product.md P11: location and description minimums of the update form. */
export const MIN_EVENT_LOCATION_LENGTH = 3;
export const MIN_EVENT_DESCRIPTION_LENGTH = 5;

export const EVENT_MESSAGES = {
  rolesRequired: 'Bitte mindestens eine Rolle wählen.',
  startRequired: msg.required('Beginn'),
  endRequired: msg.required('Ende'),
  startInvalid: 'Beginn ist kein gültiger Zeitpunkt.',
  endInvalid: 'Ende ist kein gültiger Zeitpunkt.',
  endBeforeStart: 'Das Ende darf nicht vor dem Beginn liegen.',
  unknownRole: 'Diese Rolle gibt es nicht.',
  unknownRoleNamed: (role: string | number) => `Die Rolle „${role}“ gibt es nicht.`,
  notificationsOutsideRoles: 'Benachrichtigungen können nur an Rollen des Events gehen.',
  /** "Mitglieder benachrichtigen" with a change (decision 181). */
  notifyNothingChanged:
    'Titel, Beginn, Ende, Ort, Beschreibung und Informationsdatei sind unverändert. Worüber sollen die Mitglieder benachrichtigt werden?',
  notifyRolesRequired: 'Bitte mindestens eine Rolle wählen, die benachrichtigt wird.',
  notifyFlag: 'Bitte angeben, ob die Mitglieder benachrichtigt werden sollen (ja oder nein).',
  notFound: 'Das Event wurde nicht gefunden.',
  createFailed: 'Fehler beim Erstellen eines Events',
  updateFailed: 'Fehler beim Aktualisieren einer Datei',
  deleteFailed: 'Fehler beim Löschen eines Events',
  loadFailed: 'Daten konnten nicht geladen werden',
  created: 'Event wurde erfolgreich erstellt',
  updated: 'Event erfolgreich aktualisiert',
  deleted: 'Event wurde in den Papierkorb verschoben',
  /** The delete confirmation (decision 125): nothing is lost at once. */
  deleteToTrash: 'Das Event wird in den Papierkorb verschoben. Admins können es dort wiederherstellen.',
  deleteToTrashWithFile:
    'Das Event wird mit seiner Informationsdatei in den Papierkorb verschoben. Admins können es dort wiederherstellen.',
  empty: 'Kein Event vorhanden',
  filteredEmpty: 'Keine Event passt zu deinen Filtern!',
} as const;

/**
 * A required, trimmed text with one message per problem: unlike common's `requiredText`, an empty
 * value reports only "… ist erforderlich." (not also the minimum length), and a minimum of 1 adds
 * no second check.
 */
export const eventText = (field: string, min = 1, max = MAX_TEXT_LENGTH) => {
  const base = z
    .string({ error: msg.required(field) })
    .trim()
    .normalize('NFC')
    .min(1, { error: msg.required(field), abort: true });
  return (min > 1 ? base.min(min, { error: msg.min(field, min) }) : base)
    .max(max, { error: msg.max(field, max) })
    .refine((value) => !INVISIBLE_CHARACTERS.test(value), { error: msg.invisibleCharacters(field) });
};

/** The event title: also no word mixing Latin with Cyrillic or Greek letters (common.ts). */
const eventTitle = () =>
  eventText('Titel', MIN_NAME_LENGTH).refine((value) => !mixesScripts(value), {
    error: msg.mixedScripts('Titel'),
  });

// ---------------------------------------------------------------------------------------------
// Europe/Berlin wall-clock time <-> UTC, with the platform's time-zone data (Intl), no library.

const berlinParts = new Intl.DateTimeFormat('en-US', {
  timeZone: EVENT_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Year, month (1–12), day, hour, minute and second of an instant on a Berlin wall clock. */
export function wallClockInBerlin(instant: Date): WallClock {
  const parts: Record<string, number> = {};
  for (const part of berlinParts.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

const asUtcMs = (w: WallClock) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** Offset of Europe/Berlin from UTC at an instant, in milliseconds (+1 h in winter, +2 h in summer). */
export function berlinOffsetMs(instant: Date): number {
  return asUtcMs(wallClockInBerlin(instant)) - Math.floor(instant.getTime() / 1000) * 1000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "YYYY-MM-DDTHH:mm" in Europe/Berlin, as datetime inputs and the `default_*` fields use it. */
export function toBerlinLocal(iso: string | Date): string {
  const w = wallClockInBerlin(typeof iso === 'string' ? new Date(iso) : iso);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/**
 * The instant of a Europe/Berlin wall-clock time. A time that occurs twice (the hour before the
 * autumn change) means its first occurrence (summer time); a time that does not exist (the spring
 * gap) is moved forward by the gap, like `Temporal`'s "compatible" disambiguation.
 */
export function fromBerlinLocal(w: WallClock, millisecond = 0): Date {
  const naive = asUtcMs(w);
  const offsets = [
    berlinOffsetMs(new Date(naive - 86_400_000)),
    berlinOffsetMs(new Date(naive + 86_400_000)),
  ];
  const matches = offsets
    .map((offset) => naive - offset)
    .filter((ms) => asUtcMs(wallClockInBerlin(new Date(ms))) === naive)
    .sort((a, b) => a - b);
  return new Date((matches[0] ?? naive - offsets[0]!) + millisecond);
}

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const ABSOLUTE_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Groups 1–6 of a match as date and time, or null when no calendar has it (31 February, 24:00). */
function realWallClock(match: RegExpExecArray): WallClock | null {
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((v) => Number(v ?? 0));
  const probe = new Date(Date.UTC(year, month - 1, day));
  const real =
    probe.getUTCFullYear() === year &&
    probe.getUTCMonth() === month - 1 &&
    probe.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59;
  return real ? { year, month, day, hour, minute, second } : null;
}

/**
 * Reads an event time: ISO 8601 with `Z` or an offset (`2026-11-21T14:30:00+01:00`), or a
 * wall-clock time without zone (`2026-11-21T14:30`, also with seconds or a space instead of `T`,
 * as date pickers send it) meaning Europe/Berlin. Returns the instant as ISO UTC, or null.
 */
export function parseEventTime(value: string): string | null {
  const text = value.trim();
  const local = LOCAL_PATTERN.exec(text);
  if (local) {
    const wallClock = realWallClock(local);
    if (!wallClock) return null;
    const ms = Number((local[7] ?? '0').padEnd(3, '0'));
    return fromBerlinLocal(wallClock, ms).toISOString();
  }
  const absolute = ABSOLUTE_PATTERN.exec(text);
  if (absolute) {
    if (!realWallClock(absolute)) return null;
    const parsed = new Date(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    return Number.isNaN(parsed.getTime()) ? null : parsed.toISOString();
  }
  return null;
}

/** A required event time; the output is the instant as ISO UTC. */
export const eventTimeField = (field: 'Beginn' | 'Ende') => {
  const required = field === 'Beginn' ? EVENT_MESSAGES.startRequired : EVENT_MESSAGES.endRequired;
  const invalid = field === 'Beginn' ? EVENT_MESSAGES.startInvalid : EVENT_MESSAGES.endInvalid;
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .transform((value, ctx) => {
      const iso = parseEventTime(value);
      if (iso === null) {
        ctx.issues.push({ code: 'custom', message: invalid, input: value });
        return z.NEVER;
      }
      return iso;
    });
};

/**
 * Roles by id or name. Multipart forms send repeated fields, so a single value arrives as a
 * string and numeric strings are ids; the server resolves names and rejects unknown ones.
 */
const roleRef = z.union(
  [
    z.number().int().positive(),
    z
      .string()
      .trim()
      .min(1)
      .max(50)
      .transform((value) => (/^\d+$/.test(value) ? Number(value) : value)),
  ],
  { error: EVENT_MESSAGES.unknownRole },
);
export type EventRoleRef = z.output<typeof roleRef>;
const asList = (value: EventRoleRef | EventRoleRef[]): EventRoleRef[] =>
  Array.isArray(value) ? value : [value];

export const eventRoleRefsField = z
  .union([z.array(roleRef), roleRef], { error: EVENT_MESSAGES.rolesRequired })
  .transform(asList)
  .refine((list) => list.length > 0, { error: EVENT_MESSAGES.rolesRequired });
/** Optional; an empty multipart field means "nobody". */
export const eventNotificationsField = z
  .union([z.array(roleRef).max(20), z.literal('').transform(() => []), roleRef], {
    error: EVENT_MESSAGES.unknownRole,
  })
  .transform(asList)
  .optional();
/** The information file as a data URL (JSON variant); multipart sends it as part `file`. */
const dataUrlField = z
  .string()
  .nullish()
  .transform((value) => (value ? value : undefined));

const endNotBeforeStart = <T extends { start: string; end: string }>(body: T) => body.end >= body.start;
const whenBothTimesValid = {
  path: ['end'],
  error: EVENT_MESSAGES.endBeforeStart,
  when: (payload: { value: unknown }) => {
    const value = payload.value as { start?: unknown; end?: unknown } | undefined;
    return (
      typeof value?.start === 'string' &&
      typeof value.end === 'string' &&
      parseEventTime(value.start) !== null &&
      parseEventTime(value.end) !== null
    );
  },
};

/** product.md P11, event create: title required min 3; roles, start, end, location, description required. */
export const createEventBodySchema = z
  .object({
    title: eventTitle(),
    roles: eventRoleRefsField,
    start: eventTimeField('Beginn'),
    end: eventTimeField('Ende'),
    location: eventText('Ort'),
    description: eventText('Beschreibung', 1, MAX_DESCRIPTION_LENGTH),
    notifications: eventNotificationsField,
    data: dataUrlField,
  })
  .refine(endNotBeforeStart, whenBothTimesValid);
export type CreateEventBody = z.output<typeof createEventBodySchema>;
export type CreateEventInput = z.input<typeof createEventBodySchema>;

/**
 * product.md P11, event update: title min 3, location min 3, start and end required, description
 * min 5. Roles stay as they are when absent; when sent they need at least one (decision 042).
 */
export const updateEventBodySchema = z
  .object({
    title: eventTitle(),
    roles: eventRoleRefsField.optional(),
    start: eventTimeField('Beginn'),
    end: eventTimeField('Ende'),
    location: eventText('Ort', MIN_EVENT_LOCATION_LENGTH),
    description: eventText('Beschreibung', MIN_EVENT_DESCRIPTION_LENGTH, MAX_DESCRIPTION_LENGTH),
    data: dataUrlField,
    /** Mail the change to the holders of `notifications` with the updated calendar entry (decision 181). */
    notify: formBoolean(EVENT_MESSAGES.notifyFlag).optional(),
    notifications: eventNotificationsField,
  })
  .refine(endNotBeforeStart, whenBothTimesValid)
  .refine((body) => !body.notify || (body.notifications?.length ?? 0) > 0, {
    path: ['notifications'],
    error: EVENT_MESSAGES.notifyRolesRequired,
  });
export type UpdateEventBody = z.output<typeof updateEventBodySchema>;
export type UpdateEventInput = z.input<typeof updateEventBodySchema>;

export const portalEventSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  /** ISO 8601 UTC. */
  start: z.string(),
  end: z.string(),
  location: z.string(),
  description: z.string(),
  /** Download key of the information file (`GET /api/v1/info/{key}`), or null. */
  external: z.string().nullable(),
  /** Extension of the information file, or null. */
  file_format: z.string().nullable(),
  roles: z.array(z.string()),
  roles_string: z.string(),
  /** Europe/Berlin wall-clock time "YYYY-MM-DDTHH:mm" for datetime inputs. */
  default_start: z.string(),
  default_end: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The signed-in member's own Zu- oder Absage (decision 130), or null. */
  my_attendance: myAttendanceSchema.nullable(),
  /** The Protokoll der Sitzung, once published, or null. */
  minutes: minutesSchema.nullable(),
  /** Number of agenda items (main and sub-items). */
  agenda_count: z.number().int(),
  /** When "Tagesordnung veröffentlichen" last mailed the agenda (decision 181), or null. */
  agenda_published_at: z.string().nullable(),
});
export type PortalEvent = z.infer<typeof portalEventSchema>;

export const eventListResponseSchema = z.object({ data: z.array(portalEventSchema) });
export const eventResponseSchema = z.object({ data: portalEventSchema });
export const eventWriteResponseSchema = z.object({
  event: portalEventSchema,
  /** After `notify: true`: how many mails about the change were queued. */
  notified: z.number().int().optional(),
});
export type EventWriteResponse = z.infer<typeof eventWriteResponseSchema>;

export const downloadKeyParamsSchema = z.object({
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/)
    .max(64),
});
