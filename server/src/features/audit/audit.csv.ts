import {
  AUDIT_CSV_HEADER,
  auditObjectTypeLabel,
  formatAuditDetails,
  formatBerlinDateTime,
  type AuditEntry,
} from '@gremienportal/contracts/audit';

/** German Excel opens `;`-separated files directly; the BOM makes it read them as UTF-8. */
export const CSV_BOM = '\uFEFF';
const SEPARATOR = ';';
const LINE_END = '\r\n';

/**
 * One cell: text that a spreadsheet would run as a formula (starting with = + - @, or a tab or
 * carriage return that it strips first) gets a leading apostrophe; a cell with the separator, a
 * quote or a line break is quoted, inner quotes doubled (RFC 4180).
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  if (/[;"\r\n]/.test(text) || /^\s|\s$/.test(text)) text = `"${text.replaceAll('"', '""')}"`;
  return text;
}

export const csvLine = (cells: readonly (string | number | null | undefined)[]): string =>
  cells.map(csvCell).join(SEPARATOR) + LINE_END;

export const csvHeader = (): string => CSV_BOM + csvLine(AUDIT_CSV_HEADER);

export function csvRow(entry: AuditEntry): string {
  return csvLine([
    formatBerlinDateTime(entry.at),
    entry.actor_label,
    entry.action_label,
    auditObjectTypeLabel(entry.object_type),
    entry.object_id,
    entry.object_label,
    formatAuditDetails(entry.details),
    entry.ip,
  ]);
}
