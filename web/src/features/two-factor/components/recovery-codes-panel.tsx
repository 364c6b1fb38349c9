import { Alert, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy, IconDownload, IconInfoCircle, IconPrinter } from '@tabler/icons-react';
import { saveBlob } from '../../../lib/saved-files';
import { useAuth } from '../../../lib/auth';
import { recoveryCodesFilename, recoveryCodesText } from '../two-factor.rules';

/** Prints only the codes: a page of their own, made with DOM calls so nothing in them is markup. */
function printCodes(text: string): void {
  const printWindow = window.open('', '_blank');
  if (!printWindow) {
    window.print();
    return;
  }
  const doc = printWindow.document;
  doc.title = 'Wiederherstellungscodes – Gremienportal';
  const pre = doc.createElement('pre');
  pre.style.font = '16px/1.6 monospace';
  pre.textContent = text;
  doc.body.append(pre);
  printWindow.opener = null;
  printWindow.focus();
  printWindow.print();
}

interface RecoveryCodesPanelProps {
  codes: readonly string[];
  /** "Ich habe die Codes sicher aufbewahrt": the codes are not shown again after this. */
  onDone: () => void;
}

/** The recovery codes, shown once, with the ways to keep them. */
export function RecoveryCodesPanel({ codes, onDone }: RecoveryCodesPanelProps) {
  const { user } = useAuth();
  const clipboard = useClipboard({ timeout: 3000 });
  const text = () => recoveryCodesText(codes, user?.email ?? '');

  const handleDownload = () => {
    saveBlob(new Blob([text()], { type: 'text/plain;charset=utf-8' }), recoveryCodesFilename());
  };

  return (
    <Stack gap="md">
      <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />} title="Nur jetzt sichtbar">
        Mit diesen Codes melden Sie sich an, wenn Sie Ihr Telefon nicht zur Hand haben oder verloren haben.
        Jeder Code gilt einmal. Bewahren Sie sie sicher auf, zum Beispiel ausgedruckt bei Ihren Unterlagen.
      </Alert>
      <Paper withBorder p="md" radius="md" bg="gray.0">
        <SimpleGrid
          cols={2}
          spacing="xs"
          component="ol"
          aria-label="Wiederherstellungscodes"
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {codes.map((code) => (
            <Text
              key={code}
              component="li"
              ff="monospace"
              fz={{ base: 'md', sm: 'lg' }}
              style={{ letterSpacing: '0.05em', textAlign: 'center' }}
            >
              {code}
            </Text>
          ))}
        </SimpleGrid>
      </Paper>
      <Group gap="sm" grow preventGrowOverflow={false} wrap="wrap">
        <Button
          data-wrap
          variant="default"
          size="md"
          leftSection={clipboard.copied ? <IconCheck aria-hidden /> : <IconCopy aria-hidden />}
          onClick={() => clipboard.copy(text())}
        >
          {clipboard.copied ? 'Kopiert' : 'Kopieren'}
        </Button>
        <Button
          data-wrap
          variant="default"
          size="md"
          leftSection={<IconDownload aria-hidden />}
          onClick={handleDownload}
        >
          Als Textdatei herunterladen
        </Button>
        <Button
          data-wrap
          variant="default"
          size="md"
          leftSection={<IconPrinter aria-hidden />}
          onClick={() => printCodes(text())}
        >
          Drucken
        </Button>
      </Group>
      <Text size="sm" c="dimmed" role="status">
        {clipboard.copied ? 'Die Codes sind in der Zwischenablage.' : ''}
      </Text>
      <Button data-wrap size="md" onClick={onDone} leftSection={<IconCheck aria-hidden />}>
        Ich habe die Codes sicher aufbewahrt
      </Button>
    </Stack>
  );
}
