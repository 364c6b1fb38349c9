import { formatBerlinDateTime } from './audit.ts';
import { COMMITTEE_KIND_LABELS, END_REASON_LABELS, MEMBER_FUNCTION_LABELS } from './committee-labels.ts';

/*
 * An audit entry's details as one line of German text, for the Aktivitäten table and the CSV:
 * German names for the keys the features record and for the fields a change names, de-DE dates,
 * and no changes that changed nothing.
 */

/** German names of the detail keys the features record; others show as they are. */
const DETAIL_LABELS: Record<string, string> = {
  changed: 'Geändert',
  roles: 'Rollen',
  old_roles: 'Rollen vorher',
  new_roles: 'Rollen nachher',
  notified_roles: 'Benachrichtigte Rollen',
  notified_users: 'Benachrichtigte Personen',
  previous_title: 'Vorheriger Titel',
  title: 'Titel',
  reason: 'Grund',
  start: 'Beginn',
  end: 'Ende',
  location: 'Ort',
  file: 'Datei',
  had_file: 'Mit Datei',
  format: 'Format',
  size: 'Größe',
  folder: 'Ordner',
  folder_id: 'Ordner-ID',
  from_folder: 'Von Ordner',
  to_folder: 'Nach Ordner',
  parent_id: 'Übergeordneter Ordner',
  breadcrumb: 'Pfad',
  files: 'Dateien',
  folders: 'Ordner',
  email: 'E-Mail',
  replaced: 'Inhalt ersetzt',
  size_bytes: 'Größe (Bytes)',
  created: 'Angelegt',
  notifications: 'Benachrichtigungen',
  count: 'Anzahl',
  last_at: 'Letzter Versuch',
  emails: 'E-Mail-Adressen',
  more_emails: 'Weitere E-Mail-Adressen',
  acknowledgement_required: 'Kenntnisnahme erforderlich',
  acknowledgement_due: 'Kenntnisnahme bis',
  acknowledgement_reset: 'Erneut um Kenntnisnahme gebeten',
  recipients: 'Empfänger',
  version: 'Version',
  events: 'Events',
  api_key_id: 'API-Schlüssel',
  attempted: 'Versucht',
  by: 'Durch',
  cancellations_sent: 'Absagen versandt',
  changes: 'Änderungen',
  email_visible_to_committees: 'E-Mail für Gremien sichtbar',
  documents: 'Dokumente',
  elsewhere: 'An anderer Stelle',
  from_version: 'Aus Version',
  items: 'Punkte',
  keep: 'Behalten',
  listed: 'Nur aufgeführt',
  moved: 'Verschoben',
  pages: 'Seiten',
  previous_items: 'Punkte vorher',
  scopes: 'Berechtigungen',
  status: 'Antwort',
  sub_items: 'Unterpunkte',
  trash: 'In den Papierkorb',
  valid_days: 'Gültig (Tage)',
  committee_id: 'Gremium-ID',
  term_id: 'Amtsperiode-ID',
  from: 'Von',
  until: 'Bis',
  function: 'Funktion',
  rank: 'Rang',
  district: 'Wahlbezirk',
  kind: 'Art',
  role: 'Rolle',
  role_created: 'Rolle neu angelegt',
  rules: 'Regeln',
  name: 'Name',
  archived: 'Archiviert',
  new_accounts: 'Neue Konten',
  new_memberships: 'Neue Mitgliedschaften',
  changed_memberships: 'Geänderte Mitgliedschaften',
  unchanged: 'Unverändert',
  errors: 'Fehlerhafte Zeilen',
  for: 'Für',
  account_deleted: 'Konto gelöscht',
  import: 'Aus dem Import',
};

/** German names of the fields a "Geändert" list names (users, events, documents, folders). */
const FIELD_LABELS: Record<string, string> = {
  title: 'Titel',
  firstname: 'Vorname',
  lastname: 'Nachname',
  email: 'E-Mail',
  password: 'Passwort',
  roles: 'Rollen',
  description: 'Beschreibung',
  location: 'Ort',
  start: 'Beginn',
  end: 'Ende',
  file: 'Datei',
  folder: 'Ordner',
  notifications: 'Benachrichtigungen',
  email_visible_to_committees: 'E-Mail für Gremien sichtbar',
};

/** Values some features record as codes. */
const VALUE_LABELS: Record<string, Record<string, string>> = {
  reason: {
    email_changed: 'E-Mail-Adresse geändert',
    resent: 'erneut gesendet',
    folder_refused: 'Ordner abgelehnt',
    ...END_REASON_LABELS,
  },
  function: MEMBER_FUNCTION_LABELS,
  kind: COMMITTEE_KIND_LABELS,
  recipients: { zugesagt: 'wer zugesagt hat', alle: 'alle Mitglieder der Rollen' },
};

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;

function detailValue(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'boolean') return value ? 'ja' : 'nein';
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value)) return formatBerlinDateTime(value);
    const day = ISO_DAY.exec(value);
    return day ? `${day[3]}.${day[2]}.${day[1]}` : value;
  }
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '–' : value.map(detailValue).join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    // A change recorded as { from, to }.
    if (keys.length === 2 && 'from' in record && 'to' in record) {
      return `${detailValue(record.from)} → ${detailValue(record.to)}`;
    }
    return Object.entries(record)
      .map(([key, inner]) => `${DETAIL_LABELS[key] ?? key} ${detailValue(inner)}`)
      .join(', ');
  }
  return String(value);
}

/** A `{ from, to }` change that changed nothing ("Rollen: Vertreter → Vertreter"). */
function unchanged(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    Object.keys(record).length === 2 &&
    'from' in record &&
    'to' in record &&
    detailValue(record.from) === detailValue(record.to)
  );
}

/** One detail's value: the names of changed fields and coded values in German. */
function labelledValue(key: string, value: unknown): string {
  if (key === 'changed' && Array.isArray(value)) {
    return detailValue(
      value.map((field) => (typeof field === 'string' ? (FIELD_LABELS[field] ?? field) : field)),
    );
  }
  const codes = VALUE_LABELS[key];
  const coded = (one: unknown) =>
    codes && typeof one === 'string' && codes[one] ? codes[one] : detailValue(one);
  if (codes && value && typeof value === 'object' && 'from' in value && 'to' in value) {
    return `${coded(value.from)} → ${coded(value.to)}`;
  }
  return coded(value);
}

/** "Geändert: Titel, E-Mail; Rollen: Vertreter" — the details of an entry as one line of text. */
export function formatAuditDetails(details: Record<string, unknown> | null): string {
  if (!details) return '';
  return Object.entries(details)
    .filter(([, value]) => !unchanged(value))
    .map(([key, value]) => `${DETAIL_LABELS[key] ?? key}: ${labelledValue(key, value)}`)
    .join('; ');
}
