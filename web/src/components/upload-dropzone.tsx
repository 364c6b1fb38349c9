import { useId, useState } from 'react';
import { ActionIcon, Button, Group, Input, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconFileUpload, IconFileX, IconPaperclip, IconX } from '@tabler/icons-react';
import { BYTES_PER_MB, formatSizeMb } from '../lib/format';
import { useMaxUploadMb } from '../lib/settings';

/** Media types of the extensions drop zones may offer; a file matches by either. */
const MEDIA_TYPES = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  odt: 'application/vnd.oasis.opendocument.text',
  rtf: 'application/rtf',
  txt: 'text/plain',
  csv: 'text/csv',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odp: 'application/vnd.oasis.opendocument.presentation',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  ico: 'image/x-icon',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mkv: 'video/x-matroska',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  zip: 'application/zip',
  eml: 'message/rfc822',
  msg: 'application/vnd.ms-outlook',
  ics: 'text/calendar',
} as const;

export type UploadExtension = keyof typeof MEDIA_TYPES;

/** The drop zone library's `accept`: each media type with its extensions. */
export function acceptFor(extensions: readonly UploadExtension[]): Record<string, string[]> {
  const accept: Record<string, string[]> = {};
  for (const extension of extensions) (accept[MEDIA_TYPES[extension]] ??= []).push(`.${extension}`);
  return accept;
}

/** "PDF, DOC, DOCX", in the order given. */
const extensionList = (extensions: readonly UploadExtension[]) =>
  extensions.map((extension) => extension.toUpperCase()).join(', ');

/** product.md P12's drop zone messages, in German; the size limit is the server's `max_upload_mb`. */
export function dropzoneMessages(extensions: readonly UploadExtension[], maxUploadMb: number) {
  return {
    type: `Dieser Dateityp ist nicht erlaubt. Erlaubt sind: ${extensionList(extensions)}.`,
    tooLarge: `Die Datei ist größer als ${maxUploadMb} MB.`,
    tooSmall: 'Die Datei ist leer.',
    tooMany: 'Es kann nur eine Datei hochgeladen werden – die erste wurde übernommen.',
    tooManyRejected: 'Es kann nur eine Datei hochgeladen werden.',
  };
}

type DropzoneMessages = ReturnType<typeof dropzoneMessages>;

function rejectionMessage(rejection: FileRejection, messages: DropzoneMessages): string {
  const codes = rejection.errors.map((error) => error.code);
  if (codes.includes('file-invalid-type')) return messages.type;
  if (codes.includes('file-too-large')) return messages.tooLarge;
  if (codes.includes('file-too-small')) return messages.tooSmall;
  return messages.tooManyRejected;
}

export interface UploadDropzoneProps {
  value: File | null;
  onChange: (file: File | null) => void;
  /** The file types taken; the description lists them in this order. */
  extensions: readonly UploadExtension[];
  label?: string;
  /** An error for the file (missing file, or the server's word on it). */
  error?: string;
  disabled?: boolean;
  required?: boolean;
  /** The description starts with "Optional", for a file that may be left out. */
  optional?: boolean;
  /** Shown while no file is chosen, e.g. "the current file stays" on an edit form. */
  emptyNote?: string;
  /**
   * Takes several files at once (decision 182): every accepted file of a pick or drop goes here,
   * `value` and `onChange` show and remove a single chosen one as before.
   */
  onAddMany?: (files: File[]) => void;
}

/**
 * One file, dropped or picked; only the first of several is used (product.md P3), unless the form
 * takes several (`onAddMany`, decision 182). The size limit
 * follows the server's settings; until they have loaded it is the server's default.
 */
export function UploadDropzone({
  value,
  onChange,
  extensions,
  label = 'Datei',
  error,
  disabled,
  required,
  optional,
  emptyNote,
  onAddMany,
}: UploadDropzoneProps) {
  const id = useId();
  const maxUploadMb = useMaxUploadMb();
  const messages = dropzoneMessages(extensions, maxUploadMb);
  const [notice, setNotice] = useState<string | null>(null);

  /**
   * Sees accepted and refused files together: depending on the version, the drop zone library
   * either refuses every file of a multiple drop or only those past the first.
   */
  const handleDropAny = (accepted: File[], rejections: FileRejection[]) => {
    if (onAddMany) {
      if (accepted.length > 0) onAddMany(accepted);
      const refused = rejections.map(
        (rejection) => `${rejection.file.name}: ${rejectionMessage(rejection, messages)}`,
      );
      setNotice(refused.length > 0 ? refused.join(' ') : null);
      return;
    }
    const surplus = rejections.filter((rejection) =>
      rejection.errors.every((problem) => problem.code === 'too-many-files'),
    );
    const problems = rejections.filter((rejection) => !surplus.includes(rejection));
    const chosen = accepted[0] ?? (problems.length === 0 ? surplus[0]?.file : undefined);
    if (chosen) {
      onChange(chosen);
      // Several files at once: the first is kept (product.md P3), the notice tells why the others are gone.
      setNotice(accepted.length + rejections.length > 1 ? messages.tooMany : null);
    } else if (problems[0]) {
      onChange(null);
      setNotice(rejectionMessage(problems[0], messages));
    }
  };

  const shownError = error ?? (notice && notice !== messages.tooMany ? notice : undefined);
  const descriptionId = `${id}-description`;

  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      id={id}
      required={required}
      error={shownError}
      description={
        onAddMany
          ? `Eine oder mehrere Dateien, jede bis ${maxUploadMb} MB (${extensionList(extensions)}).`
          : `${optional ? 'Optional, eine' : 'Eine'} Datei bis ${maxUploadMb} MB (${extensionList(extensions)}).`
      }
    >
      <Stack gap="xs" mt={4}>
        {/*
          The zone takes drops and clicks; keyboard and screen-reader users get the button inside,
          whose click reaches the zone. The zone is a labelled group, not a control, so nothing
          interactive is nested in another, and the file input stays out of the accessibility tree.
        */}
        <Dropzone
          onDropAny={handleDropAny}
          onDrop={() => undefined}
          accept={acceptFor(extensions)}
          maxSize={maxUploadMb * BYTES_PER_MB}
          // An empty file is refused here already; the server would refuse it too.
          validator={(file) =>
            file.size === 0 ? { code: 'file-too-small', message: messages.tooSmall } : null
          }
          multiple={onAddMany !== undefined}
          disabled={disabled}
          role="group"
          aria-labelledby={`${id}-label`}
          activateOnKeyboard={false}
          inputProps={{ 'aria-label': label, 'aria-hidden': true }}
          data-testid="file-dropzone"
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
                {onAddMany ? 'Dateien hierher ziehen oder' : 'Datei hierher ziehen oder'}
              </Text>
              <Button
                variant="default"
                size="xs"
                disabled={disabled}
                aria-describedby={shownError ? `${descriptionId} ${id}-error` : descriptionId}
                style={{ pointerEvents: 'auto' }}
              >
                {label === 'Datei' ? 'Datei auswählen' : `${label} auswählen`}
              </Button>
            </Stack>
          </Group>
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
        {notice === messages.tooMany ? (
          <Text size="sm" c="yellow.9" role="status">
            {notice}
          </Text>
        ) : null}
      </Stack>
    </Input.Wrapper>
  );
}
