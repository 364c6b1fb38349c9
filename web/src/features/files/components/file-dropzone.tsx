import { useId, useState } from 'react';
import { ActionIcon, Button, Group, Input, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconFileUpload, IconFileX, IconPaperclip, IconX } from '@tabler/icons-react';
import { formatSizeMb } from '../../../lib/format';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_MB } from '../files.api';

/**
 * The document types the drop zone takes: spec § 9's map (avi, gif, ico, jpeg, jpg, mkv, mov,
 * mp4, pdf, png, zip, doc, docx) plus the office, image, audio and mail formats committees use.
 * A file matches by its media type or by its extension.
 */
export const DOCUMENT_ACCEPT: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'application/vnd.oasis.opendocument.text': ['.odt'],
  'application/rtf': ['.rtf'],
  'text/plain': ['.txt'],
  'text/csv': ['.csv'],
  'application/vnd.ms-excel': ['.xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'application/vnd.oasis.opendocument.spreadsheet': ['.ods'],
  'application/vnd.ms-powerpoint': ['.ppt'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['.pptx'],
  'application/vnd.oasis.opendocument.presentation': ['.odp'],
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
  'image/bmp': ['.bmp'],
  'image/tiff': ['.tif', '.tiff'],
  'image/x-icon': ['.ico'],
  'video/mp4': ['.mp4'],
  'video/quicktime': ['.mov'],
  'video/x-msvideo': ['.avi'],
  'video/x-matroska': ['.mkv'],
  'audio/mpeg': ['.mp3'],
  'audio/wav': ['.wav'],
  'application/zip': ['.zip'],
  'message/rfc822': ['.eml'],
  'application/vnd.ms-outlook': ['.msg'],
  'text/calendar': ['.ics'],
};

export const ACCEPTED_EXTENSIONS = [...new Set(Object.values(DOCUMENT_ACCEPT).flat())]
  .map((ext) => ext.slice(1).toUpperCase())
  .join(', ');

/** Spec § 8's drop zone messages, in German. */
export const DROPZONE_MESSAGES = {
  type: `Dieser Dateityp ist nicht erlaubt. Erlaubt sind: ${ACCEPTED_EXTENSIONS}.`,
  tooLarge: `Die Datei ist größer als ${MAX_UPLOAD_MB} MB.`,
  tooSmall: 'Die Datei ist leer.',
  tooMany: 'Es kann nur eine Datei hochgeladen werden – die erste wurde übernommen.',
  tooManyRejected: 'Es kann nur eine Datei hochgeladen werden.',
} as const;

function rejectionMessage(rejection: FileRejection): string {
  const codes = rejection.errors.map((error) => error.code);
  if (codes.includes('file-invalid-type')) return DROPZONE_MESSAGES.type;
  if (codes.includes('file-too-large')) return DROPZONE_MESSAGES.tooLarge;
  if (codes.includes('file-too-small')) return DROPZONE_MESSAGES.tooSmall;
  return DROPZONE_MESSAGES.tooManyRejected;
}

interface FileDropzoneProps {
  value: File | null;
  onChange: (file: File | null) => void;
  /** An error for the file (missing file, or the server's word on it). */
  error?: string;
  disabled?: boolean;
  required?: boolean;
  label?: string;
  /** Shown while no file is chosen, e.g. "the current file stays" on the edit form. */
  emptyNote?: string;
}

/** One document, dropped or picked; only the first of several is used (spec § 2). */
export function FileDropzone({
  value,
  onChange,
  error,
  disabled,
  required,
  label = 'Datei',
  emptyNote,
}: FileDropzoneProps) {
  const id = useId();
  const [notice, setNotice] = useState<string | null>(null);

  /**
   * Sees accepted and refused files together: depending on the version, the drop zone library
   * either refuses every file of a multiple drop or only those past the first.
   */
  const handleDropAny = (accepted: File[], rejections: FileRejection[]) => {
    const surplus = rejections.filter((rejection) =>
      rejection.errors.every((error) => error.code === 'too-many-files'),
    );
    const problems = rejections.filter((rejection) => !surplus.includes(rejection));
    const chosen = accepted[0] ?? (problems.length === 0 ? surplus[0]?.file : undefined);
    if (chosen) {
      onChange(chosen);
      // Several files at once: the first is kept (spec § 2), the notice tells why the others are gone.
      setNotice(accepted.length + rejections.length > 1 ? DROPZONE_MESSAGES.tooMany : null);
    } else if (problems[0]) {
      onChange(null);
      setNotice(rejectionMessage(problems[0]));
    }
  };

  const shownError = error ?? (notice && notice !== DROPZONE_MESSAGES.tooMany ? notice : undefined);
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;

  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      id={id}
      required={required}
      error={shownError}
      description={`Eine Datei bis ${MAX_UPLOAD_MB} MB (${ACCEPTED_EXTENSIONS}).`}
    >
      <Stack gap="xs" mt={4}>
        {/*
          The zone takes drops and clicks; keyboard and screen-reader users get the button inside,
          whose click reaches the zone. The zone itself is no control, so nothing is nested in one,
          and the file input stays out of the accessibility tree.
        */}
        <Dropzone
          onDropAny={handleDropAny}
          onDrop={() => undefined}
          accept={DOCUMENT_ACCEPT}
          maxSize={MAX_UPLOAD_BYTES}
          multiple={false}
          disabled={disabled}
          activateOnKeyboard={false}
          inputProps={{ 'aria-label': label, 'aria-hidden': true }}
          data-testid="file-dropzone"
        >
          <Stack align="center" gap="xs" mih={72} justify="center" style={{ pointerEvents: 'none' }}>
            <Group justify="center" gap="sm">
              <Dropzone.Accept>
                <IconFileUpload size={32} aria-hidden />
              </Dropzone.Accept>
              <Dropzone.Reject>
                <IconFileX size={32} aria-hidden />
              </Dropzone.Reject>
              <Dropzone.Idle>
                <IconFileUpload size={32} aria-hidden />
              </Dropzone.Idle>
              <Text size="sm" ta="center">
                Datei hierher ziehen oder
              </Text>
            </Group>
            <Button
              variant="default"
              size="xs"
              disabled={disabled}
              aria-describedby={shownError ? `${descriptionId} ${errorId}` : descriptionId}
              style={{ pointerEvents: 'auto' }}
            >
              {label === 'Datei' ? 'Datei auswählen' : `${label} auswählen`}
            </Button>
          </Stack>
        </Dropzone>
        {value ? (
          <Group gap="xs" wrap="nowrap">
            <IconPaperclip size={18} aria-hidden />
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {value.name} ({formatSizeMb(value.size, { unit: 'bytes' })})
            </Text>
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={() => {
                setNotice(null);
                onChange(null);
              }}
              aria-label={`Auswahl „${value.name}“ entfernen`}
              disabled={disabled}
            >
              <IconX size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ) : emptyNote ? (
          <Text size="sm" c="dimmed">
            {emptyNote}
          </Text>
        ) : null}
        {notice === DROPZONE_MESSAGES.tooMany ? (
          <Text size="sm" c="yellow.9" role="status">
            {notice}
          </Text>
        ) : null}
      </Stack>
    </Input.Wrapper>
  );
}
