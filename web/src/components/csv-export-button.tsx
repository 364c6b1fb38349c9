import { useState } from 'react';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { errorMessage } from '../lib/api-client';

interface CsvExportButtonProps {
  onExport: () => Promise<void>;
  failureMessage: string;
  /** A heading for the failure's toast. */
  failureTitle?: string;
  label?: string;
  disabled?: boolean;
}

/** "Als CSV exportieren" of the admins' lists and the Aktivitäten; a failure says so in a toast. */
export function CsvExportButton({
  onExport,
  failureMessage,
  failureTitle,
  label = 'Als CSV exportieren',
  disabled,
}: CsvExportButtonProps) {
  const [exporting, setExporting] = useState(false);
  const handleExport = async () => {
    setExporting(true);
    try {
      await onExport();
    } catch (error) {
      notifications.show({
        color: 'red',
        ...(failureTitle ? { title: failureTitle } : {}),
        message: errorMessage(error, failureMessage),
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
      {label}
    </Button>
  );
}
