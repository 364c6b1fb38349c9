import { useId, useState } from 'react';
import { Alert, Button, Group, Progress, Stack, Switch, Text } from '@mantine/core';
import { IconFileCheck, IconFileImport } from '@tabler/icons-react';
import { IMPORT_MESSAGES, type ImportResult, type Term } from '@gremienportal/contracts/committees';
import { showSuccessToast } from '../../../components/toasts';
import { UploadDropzone } from '../../../components/upload-dropzone';
import { errorMessage, isApiError, type UploadProgress } from '../../../lib/api-client';
import { plural } from '../../../lib/plural';
import { useImportMembers } from '../committees.api';
import { importBlockedReason, importCountsText } from '../committees.rules';
import { ImportRows } from './import-rows';

export const IMPORT_TEXTS = {
  fileRequired: 'Bitte eine CSV-Datei wählen.',
  checkFailed: 'Die Datei konnte nicht geprüft werden.',
  runFailed: 'Der Import konnte nicht ausgeführt werden.',
  preview: (counts: ImportResult['counts']) => `Die Datei ergibt: ${importCountsText(counts)}.`,
  done: (counts: ImportResult['counts']) => `Import ausgeführt: ${importCountsText(counts)}.`,
};

/** More rows than this are summed up, not listed: a list of thousands helps no one in a dialog. */
const SHOWN_ROWS = 500;

function UploadState({ progress, label }: { progress: UploadProgress | null; label: string }) {
  const known = progress?.percent !== undefined;
  return (
    <Stack gap={4}>
      <Progress
        value={known ? progress.percent! : 100}
        animated={!known || progress.percent === 100}
        size="sm"
        aria-label="Fortschritt des Hochladens"
      />
      <Text size="sm" c="dimmed" aria-live="polite">
        {known && progress.percent! < 100 ? `${label} … ${progress.percent} %` : `${label} …`}
      </Text>
    </Stack>
  );
}

function RowList({ result, label }: { result: ImportResult; label: string }) {
  const hasErrors = result.rows.some((row) => row.action === 'error');
  const [onlyErrors, setOnlyErrors] = useState(hasErrors);
  const rows = onlyErrors ? result.rows.filter((row) => row.action === 'error') : result.rows;
  const shown = rows.slice(0, SHOWN_ROWS);
  return (
    <Stack gap="xs">
      {hasErrors ? (
        <Switch
          label="Nur Zeilen mit Fehlern zeigen"
          checked={onlyErrors}
          onChange={(event) => setOnlyErrors(event.currentTarget.checked)}
        />
      ) : null}
      <ImportRows rows={shown} label={label} />
      {rows.length > shown.length ? (
        <Text size="sm" c="dimmed">
          {plural(rows.length - shown.length, 'weitere Zeile wird', 'weitere Zeilen werden')} nicht
          aufgeführt.
        </Text>
      ) : null}
    </Stack>
  );
}

interface MemberImportProps {
  committeeId: number;
  term: Term;
  onClose: () => void;
}

/**
 * "Mitglieder importieren": a CSV file is checked first (dry run: nothing changes, the rows show
 * what would happen); "Import ausführen" sends the same file again, only while no row has errors.
 */
export default function MemberImport({ committeeId, term, onClose }: MemberImportProps) {
  const importMembers = useImportMembers(committeeId);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const [generalError, setGeneralError] = useState<{ title: string; message: string } | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const reasonId = useId();
  const busy = importMembers.isPending;

  const send = (chosen: File, dryRun: boolean) => {
    setGeneralError(null);
    setProgress(null);
    importMembers.mutate(
      { termId: term.id, file: chosen, dryRun, onProgress: setProgress },
      {
        onSuccess: (answer) => {
          if (dryRun) {
            setPreview(answer);
          } else {
            setResult(answer);
            showSuccessToast(IMPORT_TEXTS.done(answer.counts));
          }
        },
        onError: (error) => {
          const forFile = isApiError(error)
            ? (error.errors?.file?.[0] ?? error.errors?.body?.[0] ?? error.errors?.data?.[0])
            : undefined;
          if (forFile && !preview) setFileError(forFile);
          else
            setGeneralError({
              title: dryRun ? IMPORT_TEXTS.checkFailed : IMPORT_TEXTS.runFailed,
              message: errorMessage(error, dryRun ? IMPORT_TEXTS.checkFailed : IMPORT_TEXTS.runFailed),
            });
        },
        onSettled: () => setProgress(null),
      },
    );
  };

  const handleCheck = () => {
    if (!file) {
      setFileError(IMPORT_TEXTS.fileRequired);
      return;
    }
    setFileError(undefined);
    send(file, true);
  };

  const handleChooseAnother = () => {
    setPreview(null);
    setFile(null);
    setGeneralError(null);
  };

  const errorAlert = generalError ? (
    <Alert color="red" variant="light" role="alert" title={generalError.title}>
      {generalError.message !== generalError.title ? generalError.message : null}
    </Alert>
  ) : null;

  if (result) {
    return (
      <Stack gap="md">
        <Alert color="green" variant="light" role="status">
          {IMPORT_TEXTS.done(result.counts)}
          {result.counts.new_accounts > 0 ? ' Neue Konten erhalten eine Einladung per E-Mail.' : null}
        </Alert>
        <RowList result={result} label="Ergebnis des Imports" />
        <Group justify="flex-end">
          <Button onClick={onClose}>Schließen</Button>
        </Group>
      </Stack>
    );
  }

  if (preview) {
    const blocked = importBlockedReason(preview, IMPORT_MESSAGES.hasErrors);
    return (
      <Stack gap="md">
        <Text>
          Vorschau für „{file?.name}“ in der {term.title}. Noch ist nichts geändert.
        </Text>
        <Text fw={600} aria-live="polite">
          {IMPORT_TEXTS.preview(preview.counts)}
        </Text>
        <RowList result={preview} label="Vorschau des Imports" />
        {blocked ? (
          <Alert color={preview.counts.errors > 0 ? 'red' : 'gray'} variant="light" id={reasonId}>
            {blocked}
          </Alert>
        ) : null}
        {busy ? <UploadState progress={progress} label="Import läuft" /> : null}
        {errorAlert}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={handleChooseAnother} disabled={busy}>
            Andere Datei wählen
          </Button>
          <Button
            leftSection={<IconFileImport size={18} aria-hidden />}
            onClick={() => file && send(file, false)}
            disabled={blocked !== null}
            aria-describedby={blocked ? reasonId : undefined}
            loading={busy}
          >
            Import ausführen
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Text>
        Die Mitglieder kommen in die {term.title}. Zuerst wird die Datei geprüft; geändert wird erst mit
        „Import ausführen“.
      </Text>
      <Text size="sm" c="dimmed">
        Spalten: Vorname, Nachname, E-Mail und Funktion (erforderlich), dazu Anrede, Von, Bis, Wahlbezirk und
        Rang. Die erste Zeile nennt die Spalten; getrennt mit Semikolon oder Komma.
      </Text>
      <UploadDropzone
        label="CSV-Datei"
        extensions={['csv']}
        required
        value={file}
        onChange={(next) => {
          setFile(next);
          setFileError(undefined);
          setGeneralError(null);
        }}
        error={fileError}
        disabled={busy}
      />
      {busy ? <UploadState progress={progress} label="Datei wird geprüft" /> : null}
      {errorAlert}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Abbrechen
        </Button>
        <Button leftSection={<IconFileCheck size={18} aria-hidden />} onClick={handleCheck} loading={busy}>
          Datei prüfen
        </Button>
      </Group>
    </Stack>
  );
}
