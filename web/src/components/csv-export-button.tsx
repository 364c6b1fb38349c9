import { useState } from 'react';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { errorMessage } from '../lib/api-client';

/** "Als CSV exportieren" of the admins' lists; a failure says so in a toast. */
export function CsvExportButton({
  onExport,
  failureMessage,
}: {
  onExport: () => Promise<void>;
  failureMessage: string;
}) {
  const [exporting, setExporting] = useState(false);
  const handleExport = async () => {
    setExporting(true);
    try {
      await onExport();
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error, failureMessage) });
    } finally {
      setExporting(false);
    }
  };
  return (
    <Button
      variant="default"
      leftSection={<IconFileSpreadsheet size={18} aria-hidden />}
      loading={exporting}
      onClick={() => void handleExport()}
    >
      Als CSV exportieren
    </Button>
  );
}
