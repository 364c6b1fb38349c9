import { AUDIT_MESSAGES } from '@gremienportal/contracts/audit';
import { CsvExportButton } from '../../../components/csv-export-button';
import { exportAuditCsv, type AuditFilters } from '../audit.api';

interface AuditExportButtonProps {
  filters: AuditFilters;
  disabled?: boolean;
}

/** "CSV exportieren": everything the filters match, as a file for Excel. */
export function AuditExportButton({ filters, disabled }: AuditExportButtonProps) {
  return (
    <CsvExportButton
      onExport={() => exportAuditCsv(filters)}
      failureTitle={AUDIT_MESSAGES.exportFailed}
      failureMessage={AUDIT_MESSAGES.exportFailed}
      label="CSV exportieren"
      disabled={disabled}
    />
  );
}
