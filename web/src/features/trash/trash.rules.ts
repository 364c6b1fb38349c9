import { entryCount, RESTORED_SUFFIX, type TrashItem } from '@gremienportal/contracts/trash';
import { plural } from '../../lib/plural';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * "Inhalt" of an entry: a folder's documents and subfolders ("3 Dateien, 1 Unterordner", "leer"),
 * an event's information file; a document is one file.
 */
export function contentSummary(item: Pick<TrashItem, 'type' | 'files' | 'folders'>): string {
  if (item.type === 'event') return item.files > 0 ? 'mit Informationsdatei' : 'ohne Informationsdatei';
  if (item.type === 'file') return plural(item.files, 'Datei', 'Dateien');
  // `folders` counts the folder itself.
  const subfolders = Math.max(0, item.folders - 1);
  const parts = [
    item.files > 0 ? plural(item.files, 'Datei', 'Dateien') : null,
    subfolders > 0 ? plural(subfolders, 'Unterordner', 'Unterordner') : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(', ') : 'leer';
}

/** How many days an entry waits in the Papierkorb, from one entry's dates; null when unknown. */
export function retentionDays(item: Pick<TrashItem, 'deleted_at' | 'expires_at'> | undefined): number | null {
  if (!item) return null;
  const days = Math.round((Date.parse(item.expires_at) - Date.parse(item.deleted_at)) / DAY_MS);
  return Number.isFinite(days) && days > 0 ? days : null;
}

/** The line under the page title. */
export function retentionText(days: number | null): string {
  const when = days === null ? 'nach Ablauf der Aufbewahrungsfrist' : `nach ${plural(days, 'Tag', 'Tagen')}`;
  return (
    'Gelöschte Dateien, Ordner und Events bleiben hier, bis ein Admin sie wiederherstellt. ' +
    `Einträge werden ${when} endgültig gelöscht.`
  );
}

/** The question before "Papierkorb leeren", naming how many entries go. */
export function emptyQuestion(all: number): string {
  const what = all === 1 ? `${entryCount(all)} wird` : `Alle ${entryCount(all)} werden`;
  return `${what} endgültig gelöscht. Das lässt sich nicht rückgängig machen.`;
}

/** The question before "Endgültig löschen" of one entry, naming what goes with it. */
export function purgeQuestion(item: Pick<TrashItem, 'type' | 'title' | 'files' | 'folders'>): string {
  const name = `„${item.title}“`;
  const what =
    item.type === 'folder'
      ? `Der Ordner ${name} (${contentSummary(item)})`
      : item.type === 'event'
        ? `Das Event ${name}`
        : `Die Datei ${name} mit allen Versionen`;
  return `${what} wird endgültig gelöscht. Das lässt sich nicht rückgängig machen.`;
}

/** The success text after a restore; a clash at the former place added " (wiederhergestellt)". */
export function restoredText(restored: { type: TrashItem['type']; title: string; renamed: boolean }): string {
  const kind = { file: 'Die Datei', folder: 'Der Ordner', event: 'Das Event' }[restored.type];
  const text = `${kind} „${restored.title}“ wurde wiederhergestellt.`;
  return restored.renamed
    ? `${text} Am früheren Ort gab es den Namen schon, daher wurde „${RESTORED_SUFFIX.trim()}“ angehängt.`
    : text;
}
