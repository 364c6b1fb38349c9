import {
  AUDIT_CSV_HEADER,
  auditObjectTypeLabel,
  formatBerlinDateTime,
  type AuditEntry,
} from '@gremienportal/contracts/audit';
import { formatAuditDetails } from '@gremienportal/contracts/audit-details';
import { CSV_BOM, csvRow } from '../../http/csv.ts';

/** The first line of the export, with the BOM. */
export const auditCsvHeader = (): string => CSV_BOM + csvRow(AUDIT_CSV_HEADER);

export function auditCsvRow(entry: AuditEntry): string {
  return csvRow([
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
