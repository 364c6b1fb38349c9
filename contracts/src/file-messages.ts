/**
 * The German texts of folders, documents, upload batches and Kenntnisnahme, without zod: the
 * explorer's first load imports them from here and so loads no schema library (decision 184). The
 * schema modules (folders.ts, files.ts, files-batches.ts, acknowledgements.ts) re-export them.
 */
import { msg } from './rules.ts';

/** Amtsperiode (product.md P6.8): years 1950–2100, at most this many years (one subfolder each). */
export const PERIOD_MIN_YEAR = 1950;
export const PERIOD_MAX_YEAR = 2100;
export const PERIOD_MAX_YEARS = 10;

/** German texts of the folder area: server errors and the explorer's toasts (product.md P12). */
export const FOLDER_MESSAGES = {
  duplicateTitle: 'Ein Ordner mit diesem Namen existiert hier bereits.',
  slashInTitle: 'Der Name darf keinen Schrägstrich (/) enthalten.',
  controlInTitle: 'Der Name enthält unzulässige Zeichen.',
  protectedFolder:
    'Dieser Ordner ist geschützt und kann nicht umbenannt, verschoben, geändert oder gelöscht werden.',
  moveIntoItself: 'Ein Ordner kann nicht in sich selbst oder einen seiner Unterordner verschoben werden.',
  parentNotFound: 'Der Zielordner wurde nicht gefunden.',
  /** The folder of an ended Amtsperiode, or a folder below it (decision 189): read-only, also for Admins. */
  archived:
    'Dieser Ordner ist archiviert (Amtsperiode beendet). Er kann nicht mehr geändert werden; nur ein Super-Admin kann ihn für eine Korrektur wieder öffnen.',
  /** The Archiv badge next to an archived folder's title. */
  archivedBadge: 'Archiv',
  rolesRequired: 'Bitte mindestens eine Rolle wählen.',
  unknownRole: (role: string | number) => `Die Rolle „${role}“ gibt es nicht.`,
  periodStartRequired: msg.required('Start'),
  periodEndRequired: msg.required('Ende'),
  periodYearInvalid: (field: string) => `${field} muss eine Jahreszahl sein.`,
  periodYearMin: (field: string) => `${field} darf nicht vor ${PERIOD_MIN_YEAR} liegen.`,
  periodYearMax: (field: string) => `${field} darf nicht nach ${PERIOD_MAX_YEAR} liegen.`,
  periodEndBeforeStart: 'Das Ende darf nicht vor dem Start liegen.',
  periodTooLong: `Eine Amtsperiode umfasst höchstens ${PERIOD_MAX_YEARS} Jahre.`,
  /** The delete confirmation since the Papierkorb (decision 125): nothing is lost at once. */
  trashConfirm: (folders: number, files: number) => {
    const parts = [
      ...(folders > 0 ? [`${folders} Ordner`] : []),
      ...(files > 0 ? [`${files} ${files === 1 ? 'Datei' : 'Dateien'}`] : []),
    ];
    return parts.length === 0
      ? 'Der Ordner ist leer und wird in den Papierkorb verschoben.'
      : `Der Ordner enthält ${parts.join(' und ')}. Alles wird in den Papierkorb verschoben.`;
  },
  deleteToTrash: 'Admins können den Ordner mit seinem Inhalt dort wiederherstellen.',
  created: 'Ordner wurde erfolgreich erstellt',
  createFailed: 'Fehler beim Erstellen des Ordners',
  createFailedPage: 'Fehler beim Erstellen eines Ordners',
  updated: 'Ordner erfolgreich aktualisiert',
  updateFailed: 'Fehler beim Aktualisieren des Ordners',
  deleted: 'Ordner wurde in den Papierkorb verschoben',
  deleteFailed: 'Fehler beim Löschen des Ordners',
  periodCreated: 'Amtsperiode wurde erfolgreich erstellt',
  periodFailed: 'Fehler beim Erstellen der Amtsperiode',
  loadFailed: 'Daten konnten nicht geladen werden',
  empty: 'Ordner leer',
} as const;

/** German texts of the file area: server errors and the explorer's toasts (product.md P12). */
export const FILE_MESSAGES = {
  rolesRequired: FOLDER_MESSAGES.rolesRequired,
  unknownRole: FOLDER_MESSAGES.unknownRole,
  folderRequired: 'Bitte einen Ordner wählen.',
  oneFolderOnly: 'Bitte höchstens einen Ordner wählen.',
  folderNotFound: 'Der Ordner wurde nicht gefunden.',
  noUploadToRoot:
    'In den Hauptordner können keine Dateien hochgeladen werden. Bitte einen Unterordner wählen.',
  fileRequired: 'Bitte eine Datei auswählen.',
  notificationsOutsideRoles: 'Benachrichtigungen können nur an Rollen gehen, die die Datei sehen dürfen.',
  created: 'Datei wurde erfolgreich hochgeladen',
  createFailed: 'Fehler beim Hochladen der Datei',
  createFailedPage: 'Fehler beim Erstellen einer Datei',
  updated: 'Datei erfolgreich aktualisiert',
  updateFailed: 'Fehler beim Aktualisieren der Datei',
  updateFailedPage: 'Fehler beim Aktualisieren einer Datei',
  deleted: 'Datei wurde in den Papierkorb verschoben',
  /** The delete confirmation (decision 125): nothing is lost at once. */
  deleteToTrash: 'Die Datei wird in den Papierkorb verschoben. Admins können sie dort wiederherstellen.',
  deleteFailed: 'Fehler beim Löschen der Datei',
  deleteFailedPage: 'Fehler beim Löschen einer Datei',
  loadFailed: 'Daten konnten nicht geladen werden',
  selectedTitle: 'Datei ausgewählt',
  selectedText: 'Eine der folgenden Funktionen auswählen.',
  overviewTitle: 'Übersicht aktueller Dateien',
} as const;

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

export const ACKNOWLEDGEMENT_MESSAGES = {
  required: 'Kenntnisnahme erforderlich',
  due: 'bis',
  /** The banner on the document and in the file dialog. */
  banner: 'Bitte bestätigen Sie, dass Sie dieses Dokument zur Kenntnis genommen haben',
  bannerDue: (date: string) =>
    `Bitte bestätigen Sie bis ${date}, dass Sie dieses Dokument zur Kenntnis genommen haben`,
  confirm: 'Zur Kenntnis genommen',
  /** Why the button is disabled, and the 409 of a confirmation before the document was opened. */
  openFirst:
    'Bitte öffnen Sie das Dokument oder laden Sie es herunter, bevor Sie die Kenntnisnahme bestätigen.',
  confirmed: 'Kenntnisnahme bestätigt',
  confirmedAt: (dateTime: string) => `Zur Kenntnis genommen am ${dateTime}`,
  notRequired: 'Für dieses Dokument ist keine Kenntnisnahme erforderlich.',
  /** Upload and edit form. */
  requiredInvalid: 'Bitte angeben, ob eine Kenntnisnahme erforderlich ist (ja oder nein).',
  dueInvalid: 'Bitte ein gültiges Datum im Format JJJJ-MM-TT angeben.',
  dueWithoutRequired: 'Ein Datum „bis“ ist nur möglich, wenn „Kenntnisnahme erforderlich“ gewählt ist.',
  resetInvalid: 'Bitte angeben, ob erneut um Kenntnisnahme gebeten wird (ja oder nein).',
  /** The checkbox shown when a new content replaces the old one. */
  reset: 'Erneut um Kenntnisnahme bitten',
  /** Admin list. */
  listTitle: 'Kenntnisnahme',
  confirmedLabel: 'Bestätigt',
  pendingLabel: 'Offen',
  /** "1 von 12 bestätigt (8 %)". */
  summary: (confirmed: number, total: number, percent: number) =>
    `${confirmed} von ${total} bestätigt (${percent} %)`,
  nobody: 'Niemand außer Admins kann dieses Dokument sehen.',
  remind: 'Erinnerung senden',
  reminderSent: (count: number) =>
    count === 1 ? 'Erinnerung an 1 Person gesendet' : `Erinnerung an ${count} Personen gesendet`,
  reminderNobody: 'Alle haben die Kenntnisnahme bereits bestätigt; es wurde keine Erinnerung gesendet.',
  reminderTooSoon: (dateTime: string) =>
    `Zu diesem Dokument wurde in den letzten 24 Stunden bereits eine Erinnerung gesendet. Die nächste ist ab ${dateTime} Uhr möglich.`,
  exportCsv: 'Als CSV exportieren',
} as const;
