import { useState } from 'react';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { AUDIT_MESSAGES } from '@gremienportal/contracts/audit';
import { errorMessage } from '../../../lib/api-client';
import { exportAuditCsv, type AuditFilters } from '../audit.api';

interface AuditExportButtonProps {
  filters: AuditFilters;
  disabled?: boolean;
}

/** "CSV exportieren": everything the filters match, as a file for Excel. */
export function AuditExportButton({ filters, disabled }: AuditExportButtonProps) {
  const [exporting, setExporting] = useState(false);

  const handleExport = async () => {
    setExporting(true);
    try {
      await exportAuditCsv(filters);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: AUDIT_MESSAGES.exportFailed,
        message: errorMessage(error, AUDIT_MESSAGES.exportFailed),
      });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Button
      variant="default"
      leftSection={<IconFileSpreadsheet size={18} aria-hidden />}
      loading={exporting}
      disabled={disabled}
      onClick={() => void handleExport()}
    >
      CSV exportieren
    </Button>
  );
}
