import { useId, useState } from 'react';
import { ActionIcon, Button, Group, Input, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconFileUpload, IconFileX, IconPaperclip, IconX } from '@tabler/icons-react';
import { EVENT_FILE_MAX_BYTES } from '@gremienportal/contracts/events';
import { formatSizeMb } from '../../../lib/format';

/** The information file types the drop zone offers (spec § 9's map plus common office formats). */
export const EVENT_FILE_ACCEPT: Record<string, string[]> = {
  'application/pdf': ['.pdf'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'application/vnd.ms-excel': ['.xls'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'application/vnd.ms-powerpoint': ['.ppt'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['.pptx'],
  'application/vnd.oasis.opendocument.text': ['.odt'],
  'text/plain': ['.txt'],
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/gif': ['.gif'],
  'image/x-icon': ['.ico'],
  'application/zip': ['.zip'],
  'video/mp4': ['.mp4'],
  'video/quicktime': ['.mov'],
  'video/x-msvideo': ['.avi'],
  'video/x-matroska': ['.mkv'],
};

const ACCEPTED_EXTENSIONS = [...new Set(Object.values(EVENT_FILE_ACCEPT).flat())]
  .map((ext) => ext.slice(1).toUpperCase())
  .join(', ');
const MAX_MB = Math.floor(EVENT_FILE_MAX_BYTES / 1024 / 1024);

/** Spec § 8's drop zone messages, in German. */
export const DROPZONE_MESSAGES = {
  type: `Dieser Dateityp ist nicht erlaubt. Erlaubt sind: ${ACCEPTED_EXTENSIONS}.`,
  tooLarge: `Die Datei ist größer als ${MAX_MB} MB.`,
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

interface EventFileDropzoneProps {
  value: File | null;
  onChange: (file: File | null) => void;
  /** An error from the server for the file. */
  error?: string;
  disabled?: boolean;
  /** Shown while no new file is chosen, e.g. the format of the current file on the edit page. */
  currentFileNote?: string;
  label?: string;
}

/** One information file; only the first of several dropped files is used (spec § 2). */
export function EventFileDropzone({
  value,
  onChange,
  error,
  disabled,
  currentFileNote,
  label = 'Informationsdatei',
}: EventFileDropzoneProps) {
  const id = useId();
  const [notice, setNotice] = useState<string | null>(null);

  const handleDrop = (files: File[]) => {
    setNotice(null);
    onChange(files[0] ?? null);
  };

  const handleReject = (rejections: FileRejection[]) => {
    const first = rejections[0];
    if (!first) return;
    const onlyTooMany = first.errors.every((e) => e.code === 'too-many-files');
    if (onlyTooMany && rejections.length > 1) {
      // Several files at once: keep the first, as spec § 2 says, and tell why the others are gone.
      onChange(first.file);
      setNotice(DROPZONE_MESSAGES.tooMany);
      return;
    }
    setNotice(rejectionMessage(first));
  };

  const shownError = error ?? (notice && notice !== DROPZONE_MESSAGES.tooMany ? notice : undefined);

  return (
    <Input.Wrapper
      label={label}
      id={id}
      error={shownError}
      description={`Optional, eine Datei bis ${MAX_MB} MB (${ACCEPTED_EXTENSIONS}).`}
    >
      <Stack gap="xs" mt={4}>
        <Dropzone
          onDrop={handleDrop}
          onReject={handleReject}
          accept={EVENT_FILE_ACCEPT}
          maxSize={EVENT_FILE_MAX_BYTES}
          multiple={false}
          disabled={disabled}
          // A labelled group with a real button inside: the root itself is no button, so the hidden
          // file input in it does not nest an interactive element in another (axe).
          role="group"
          activateOnKeyboard={false}
          aria-labelledby={`${id}-label`}
          aria-describedby={shownError ? `${id}-description ${id}-error` : `${id}-description`}
          inputProps={{ 'aria-label': label }}
        >
          <Group justify="center" gap="md" mih={72} style={{ pointerEvents: 'none' }}>
            <Dropzone.Accept>
              <IconFileUpload size={36} aria-hidden />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconFileX size={36} aria-hidden />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconFileUpload size={36} aria-hidden />
            </Dropzone.Idle>
            <Stack gap={6} align="center">
              <Text size="sm" ta="center">
                Datei hierher ziehen oder
              </Text>
              {/* Its click reaches the drop zone, which opens the file dialog. */}
              <Button variant="default" size="xs" disabled={disabled}>
                Datei auswählen
              </Button>
            </Stack>
          </Group>
        </Dropzone>
        {value ? (
          <Group gap="xs" wrap="nowrap">
            <IconPaperclip size={18} aria-hidden />
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
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
        ) : currentFileNote ? (
          <Text size="sm" c="dimmed">
            {currentFileNote}
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
