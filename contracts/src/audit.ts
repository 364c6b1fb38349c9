// Over 300 lines because the audit trail's action labels, Berlin time helpers, filter, list,
// access and export schemas are one contract that server and web read together.
import { z } from 'zod';
import { dataOf, idSchema, personSchema } from './common.ts';
import { fromBerlinLocal, parseEventTime, wallClockInBerlin } from './events.ts';

/**
 * The audit trail ("Aktivitäten"; "Protokoll" is a meeting's minutes): action names the features record, with the German label the
 * page, the CSV export and the API show. An action missing here shows its raw name.
 */
export const AUDIT_ACTIONS = {
  'auth.login': 'Anmeldung',
  'auth.login_failed': 'Anmeldung fehlgeschlagen',
  'auth.logout': 'Abmeldung',
  'auth.reset_requested': 'Passwort-Reset angefordert',
  'auth.reset_completed': 'Passwort zurückgesetzt',
  'user.invited': 'Einladung versendet',
  'auth.invitation_accepted': 'Einladung angenommen',
  'file.viewed': 'Datei angesehen',
  'file.downloaded': 'Datei heruntergeladen',
  'file.created': 'Datei hochgeladen',
  'file.updated': 'Datei geändert',
  'file.deleted': 'Datei in den Papierkorb verschoben',
  'file.version_restored': 'Dateiversion wiederhergestellt',
  'file.version_removed': 'Alte Dateiversion entfernt',
  'file.acknowledged': 'Kenntnisnahme bestätigt',
  'file.acknowledgement_reminded': 'Erinnerung zur Kenntnisnahme gesendet',
  'folder.created': 'Ordner angelegt',
  'folder.updated': 'Ordner geändert',
  'folder.deleted': 'Ordner in den Papierkorb verschoben',
  'period.created': 'Amtsperiode angelegt',
  'event.created': 'Event angelegt',
  'event.updated': 'Event geändert',
  'event.deleted': 'Event in den Papierkorb verschoben',
  'event.agenda_updated': 'Tagesordnung geändert',
  'event.agenda_published': 'Tagesordnung veröffentlicht',
  'event.agenda_changes_published': 'Änderungen der Tagesordnung mitgeteilt',
  'trash.restored': 'Aus dem Papierkorb wiederhergestellt',
  'trash.purged': 'Endgültig gelöscht',
  'trash.expired': 'Nach Ablauf endgültig gelöscht',
  'trash.emptied': 'Papierkorb geleert',
  'event.file_downloaded': 'Event-Datei heruntergeladen',
  'event.attendance_answered': 'Zu- oder Absage gegeben',
  'event.attendance_reminded': 'Erinnerung an offene Antworten gesendet',
  'event.minutes_published': 'Protokoll veröffentlicht',
  'event.minutes_removed': 'Protokoll entfernt',
  'event.minutes_downloaded': 'Protokoll heruntergeladen',
  'event.book_downloaded': 'Sitzungsmappe heruntergeladen',
  'user.created': 'Nutzer angelegt',
  'user.updated': 'Nutzer geändert',
  'user.deleted': 'Nutzer gelöscht',
  'user.roles_changed': 'Rollen geändert',
  'user.two_factor_reset': 'Zwei-Faktor-Anmeldung zurückgesetzt',
  'account.updated': 'Account geändert',
  'account.two_factor_enabled': 'Zwei-Faktor-Anmeldung eingerichtet',
  'account.two_factor_disabled': 'Zwei-Faktor-Anmeldung ausgeschaltet',
  'account.recovery_codes_renewed': 'Neue Wiederherstellungscodes erzeugt',
  'account.passkey_added': 'Passkey hinzugefügt',
  'account.passkey_removed': 'Passkey entfernt',
  'account.calendar_feed_created': 'Kalender-Abonnement eingerichtet',
  'account.calendar_feed_revoked': 'Kalender-Abonnement beendet',
  'account.notifications_updated': 'Benachrichtigungen geändert',
  'search.performed': 'Gesucht',
  'api_key.created': 'API-Schlüssel angelegt',
  'api_key.revoked': 'API-Schlüssel widerrufen',
  'api_key.refused': 'API-Schlüssel abgewiesen',
  'committee.created': 'Gremium angelegt',
  'committee.updated': 'Gremium geändert',
  'committee.deleted': 'Gremium gelöscht',
  'term.created': 'Amtsperiode eines Gremiums angelegt',
  'term.updated': 'Amtsperiode geändert',
  'term.deleted': 'Amtsperiode gelöscht',
  'term.archived': 'Amtsperiode archiviert',
  'term.reopened': 'Archivierte Amtsperiode wieder geöffnet',
  'membership.created': 'Mitgliedschaft angelegt',
  'membership.updated': 'Mitgliedschaft geändert',
  'membership.deleted': 'Mitgliedschaft gelöscht',
  'membership.started': 'Mitgliedschaft begonnen',
  'membership.ended': 'Mitgliedschaft beendet',
  'membership.successor': 'Ersatzmitglied nachgerückt',
  'membership.imported': 'Mitglieder importiert',
  'motion.created': 'Beschlussvorlage angelegt',
  'motion.updated': 'Beschlussvorlage geändert',
  'motion.voided': 'Abstimmung durch Änderung der Vorlage ungültig',
  'motion.deleted': 'Beschlussvorlage gelöscht',
  'motion.opened': 'Abstimmung geöffnet',
  'motion.voted': 'Stimme abgegeben',
  'motion.secret_participation': 'Teilnahme an geheimer Abstimmung festgehalten',
  'motion.objected': 'Widerspruch im Umlaufverfahren',
  'motion.objection_stopped': 'Umlaufverfahren durch Widerspruch beendet',
  'motion.conflict_declared': 'Interessenkonflikt erklärt',
  'motion.hand_counted': 'Handzeichen gezählt',
  'motion.closed': 'Abstimmung geschlossen',
  'motion.withdrawn': 'Beschlussvorlage zurückgezogen',
  'motion.reminded': 'An die Abstimmung erinnert',
  'resolution.established': 'Beschluss festgestellt',
  'resolution.corrected': 'Beschluss berichtigt',
  'resolution.follow_up': 'Umsetzung eines Beschlusses gepflegt',
  'minutes.created': 'Niederschrift erstellt',
  'minutes.saved': 'Niederschrift gespeichert',
} as const satisfies Record<string, string>;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

/**
 * The German label; an entry that stands for several equal events (failed sign-ins of one client
 * within a minute, decision 117) says how many: "Anmeldung fehlgeschlagen (12×)".
 */
export function auditActionLabel(action: string, details?: Record<string, unknown> | null): string {
  const label = Object.hasOwn(AUDIT_ACTIONS, action) ? AUDIT_ACTIONS[action as AuditAction] : action;
  const count = details?.count;
  return typeof count === 'number' && Number.isInteger(count) && count > 1 ? `${label} (${count}×)` : label;
}

/** Actions that are one person's access to a document or an event file (the "Zugriffe" list). */
export const ACCESS_ACTIONS = {
  file: ['file.viewed', 'file.downloaded'],
  event: ['event.file_downloaded', 'event.minutes_downloaded', 'event.book_downloaded'],
} as const satisfies Record<string, readonly AuditAction[]>;
export type AccessObjectType = keyof typeof ACCESS_ACTIONS;

/** Sign-ins a member sees under "Letzte Anmeldungen". */
export const LOGIN_ACTIONS = ['auth.login', 'auth.login_failed'] as const satisfies readonly AuditAction[];
export const MY_LOGINS_LIMIT = 10;

export const AUDIT_OBJECT_TYPES = {
  user: 'Nutzer',
  folder: 'Ordner',
  file: 'Datei',
  event: 'Event',
  period: 'Amtsperiode',
  session: 'Sitzung',
  trash: 'Papierkorb',
  api_key: 'API-Schlüssel',
  committee: 'Gremium',
  membership: 'Mitgliedschaft',
  motion: 'Beschlussvorlage',
  resolution: 'Beschluss',
  minutes: 'Niederschrift',
} as const satisfies Record<string, string>;
export type AuditObjectType = keyof typeof AUDIT_OBJECT_TYPES;
export const AUDIT_OBJECT_TYPE_NAMES = Object.keys(AUDIT_OBJECT_TYPES) as AuditObjectType[];

export const auditObjectTypeLabel = (type: string | null): string =>
  type === null
    ? ''
    : Object.hasOwn(AUDIT_OBJECT_TYPES, type)
      ? AUDIT_OBJECT_TYPES[type as AuditObjectType]
      : type;

/** Things whose current readers "Sichtbar für" lists. */
export const VISIBLE_TO_TYPES = ['file', 'folder', 'event'] as const;
export type VisibleToType = (typeof VISIBLE_TO_TYPES)[number];

export const AUDIT_DEFAULT_PER_PAGE = 10;
export const AUDIT_MAX_PER_PAGE = 100;
/** Client addresses are shortened after this many days (decision 062). */
export const AUDIT_IP_SHORTEN_AFTER_DAYS = 30;

export const AUDIT_MESSAGES = {
  title: 'Aktivitäten',
  loadFailed: 'Daten konnten nicht geladen werden',
  exportFailed: 'Der Export ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  empty: 'Keine Einträge vorhanden',
  filteredEmpty: 'Kein Eintrag passt zu deinen Filtern!',
  invalidAction: 'Bitte eine gültige Aktion angeben.',
  invalidObjectType: 'Bitte einen gültigen Objekttyp angeben.',
  invalidTime: 'Bitte ein Datum (JJJJ-MM-TT) oder einen Zeitpunkt (ISO 8601) angeben.',
  rangeReversed: 'Das Ende des Zeitraums darf nicht vor dem Anfang liegen.',
  invalidPage: 'Bitte eine gültige Seitenzahl angeben.',
  invalidPerPage: `Pro Seite sind 1 bis ${AUDIT_MAX_PER_PAGE} Einträge möglich.`,
  queryTooLong: 'Der Suchtext darf höchstens 100 Zeichen lang sein.',
} as const;

// ---------------------------------------------------------------------------------------------
// Time range: a day (YYYY-MM-DD) is a Europe/Berlin calendar day; a time is ISO 8601 (with `Z` or
// an offset; without one it is Berlin wall-clock time, as for events).

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

function berlinDayStart(year: number, month: number, day: number): Date | null {
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    return null;
  }
  return fromBerlinLocal({ year, month, day, hour: 0, minute: 0, second: 0 });
}

/**
 * The instant a range bound stands for, as ISO UTC: `from` is inclusive (a day starts at Berlin
 * midnight), `to` is exclusive (a day ends where the next Berlin day starts; a time includes its
 * own millisecond). Null when the text is neither a day nor a time.
 */
export function auditRangeBound(value: string, edge: 'from' | 'to'): string | null {
  const text = value.trim();
  const day = DATE_ONLY.exec(text);
  if (day) {
    const [year, month, date] = day.slice(1, 4).map(Number) as [number, number, number];
    if (year < 1900 || year > 9998) return null;
    const start = berlinDayStart(year, month, date);
    if (!start) return null;
    if (edge === 'from') return start.toISOString();
    const next = new Date(Date.UTC(year, month - 1, date + 1));
    return berlinDayStart(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate())!.toISOString();
  }
  const instant = parseEventTime(text);
  if (!instant) return null;
  return edge === 'from' ? instant : new Date(new Date(instant).getTime() + 1).toISOString();
}

/** "21.11.2026 11:00:00" in Europe/Berlin: German Excel reads it as a date and time. */
export function formatBerlinDateTime(iso: string): string {
  const w = wallClockInBerlin(new Date(iso));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(w.day)}.${pad(w.month)}.${w.year} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

/** Today's Berlin date as YYYY-MM-DD (the export's file name). */
export function berlinDate(instant: Date): string {
  const w = wallClockInBerlin(instant);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Requests

const optionalText = (max: number, error: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z.string().trim().max(max, { error }).optional(),
  );

export const timeField = optionalText(40, AUDIT_MESSAGES.invalidTime).refine(
  (value) => value === undefined || auditRangeBound(value, 'from') !== null,
  { error: AUDIT_MESSAGES.invalidTime },
);

const ACTION_NAME = /^[a-z][a-z_]{0,48}\.[a-z_]{1,48}$/;

/** One or several actions: repeated (`action=a&action=b`) or comma-separated (`action=a,b`). */
const actionsField = z.preprocess(
  (value) => {
    if (value === undefined || value === null) return undefined;
    const list = (Array.isArray(value) ? value : [value]).flatMap((item) =>
      typeof item === 'string' ? item.split(',') : [item],
    );
    const cleaned = list.filter((item) => typeof item !== 'string' || item.trim() !== '');
    return cleaned.length === 0 ? undefined : cleaned;
  },
  // One message under `action`, whichever item is wrong: the form shows it under its one field.
  z
    .array(z.string(), { error: AUDIT_MESSAGES.invalidAction })
    .refine((list) => list.length <= 50 && list.every((item) => ACTION_NAME.test(item.trim())), {
      error: AUDIT_MESSAGES.invalidAction,
    })
    .transform((list) => list.map((item) => item.trim()))
    .optional(),
);

export const optionalId = z.preprocess((value) => (value === '' ? undefined : value), z.optional(idSchema));

/** The filters of the list and of the CSV export. */
export const auditFilterQuerySchema = z.object({
  actor_id: optionalId,
  /** Text in the acting person's name or e-mail address. */
  q: optionalText(100, AUDIT_MESSAGES.queryTooLong),
  action: actionsField,
  object_type: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z
      .enum(AUDIT_OBJECT_TYPE_NAMES as [AuditObjectType, ...AuditObjectType[]], {
        error: AUDIT_MESSAGES.invalidObjectType,
      })
      .optional(),
  ),
  object_id: optionalId,
  from: timeField,
  to: timeField,
});

export const pageFields = {
  page: z.coerce
    .number({ error: AUDIT_MESSAGES.invalidPage })
    .int({ error: AUDIT_MESSAGES.invalidPage })
    .min(1, { error: AUDIT_MESSAGES.invalidPage })
    .max(1_000_000, { error: AUDIT_MESSAGES.invalidPage })
    .default(1),
  per_page: z.coerce
    .number({ error: AUDIT_MESSAGES.invalidPerPage })
    .int({ error: AUDIT_MESSAGES.invalidPerPage })
    .min(1, { error: AUDIT_MESSAGES.invalidPerPage })
    .max(AUDIT_MAX_PER_PAGE, { error: AUDIT_MESSAGES.invalidPerPage })
    .default(AUDIT_DEFAULT_PER_PAGE),
};

export function rangeInOrder(query: { from?: string; to?: string }): boolean {
  const from = query.from ? auditRangeBound(query.from, 'from') : null;
  const to = query.to ? auditRangeBound(query.to, 'to') : null;
  // An unreadable bound has its own message.
  return from === null || to === null || from < to;
}

export const auditExportQuerySchema = auditFilterQuerySchema.refine(rangeInOrder, {
  error: AUDIT_MESSAGES.rangeReversed,
  path: ['to'],
});
export type AuditExportQuery = z.output<typeof auditExportQuerySchema>;

export const auditListQuerySchema = auditFilterQuerySchema
  .extend(pageFields)
  .refine(rangeInOrder, { error: AUDIT_MESSAGES.rangeReversed, path: ['to'] });
export type AuditListQuery = z.output<typeof auditListQuerySchema>;
/** What a caller may send (all strings, all optional), e.g. to build a query string. */
export type AuditListParams = z.input<typeof auditListQuerySchema>;

export const pageQuerySchema = z.object(pageFields);
export type PageQuery = z.output<typeof pageQuerySchema>;

export const accessParamsSchema = z.object({
  type: z.enum(Object.keys(ACCESS_ACTIONS) as [AccessObjectType, ...AccessObjectType[]]),
  id: idSchema,
});
export type AccessParams = z.output<typeof accessParamsSchema>;

export const visibleToParamsSchema = z.object({ type: z.enum(VISIBLE_TO_TYPES), id: idSchema });
export type VisibleToParams = z.output<typeof visibleToParamsSchema>;

// ---------------------------------------------------------------------------------------------
// Responses

export const auditEntrySchema = z.object({
  id: z.number().int(),
  /** ISO 8601 UTC. */
  at: z.string(),
  actor_id: z.number().int().nullable(),
  /** "Vorname Nachname <mail>" at the time; kept when the account is deleted later. */
  actor_label: z.string().nullable(),
  action: z.string(),
  action_label: z.string(),
  object_type: z.string().nullable(),
  object_id: z.number().int().nullable(),
  object_label: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  /** Client address; shortened after 30 days (IPv4 `203.0.113.0`, IPv6 `2001:db8:1::/48`). */
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const pageMetaSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type PageMeta = z.infer<typeof pageMetaSchema>;

export const auditListResponseSchema = z.object({ data: z.array(auditEntrySchema), meta: pageMetaSchema });
export type AuditListResponse = z.infer<typeof auditListResponseSchema>;

export const visibleUserSchema = personSchema.extend({
  /** Why: "admin" (Admins and Super-Admins see everything) or "roles" (shared roles). */
  reason: z.enum(['admin', 'roles']),
});
export type VisibleUser = z.infer<typeof visibleUserSchema>;
export const visibleToResponseSchema = dataOf(z.array(visibleUserSchema));
export type VisibleToResponse = z.infer<typeof visibleToResponseSchema>;

export const myLoginSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  action: z.string(),
  action_label: z.string(),
  ip: z.string().nullable(),
});
export type MyLogin = z.infer<typeof myLoginSchema>;
export const myLoginsResponseSchema = dataOf(z.array(myLoginSchema));
export type MyLoginsResponse = z.infer<typeof myLoginsResponseSchema>;

export const AUDIT_CSV_HEADER = [
  'Zeitpunkt (Europe/Berlin)',
  'Person',
  'Aktion',
  'Objekttyp',
  'Objekt-ID',
  'Objekt',
  'Details',
  'Adresse',
] as const;
