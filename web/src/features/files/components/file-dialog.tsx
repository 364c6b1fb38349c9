import { Link } from 'react-router';
import { Button, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload, IconEye, IconInfoCircle, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { FILE_MESSAGES, FOLDER_MESSAGES } from '@gremienportal/contracts/file-messages';
import { ArchiveBadge } from '../../../components/archive-badge';
import { FileIcon } from '../../../components/file-icon';
import { useOpenDocument } from '../../../lib/document-content';
import { formatDateTime, formatSizeMb } from '../../../lib/format';
import { fileQueryOptions, type StoredFile } from '../files.api';
import { AcknowledgementBanner } from './acknowledgement-banner';
import { NotSearchableNote } from './text-state';

interface FileDialogProps {
  file: StoredFile | null;
  isAdmin: boolean;
  onClose: () => void;
  /** Admins: opens "Datei bearbeiten". */
  onEdit?: (file: StoredFile) => void;
  /** Admins: asks and deletes. */
  onDelete?: (file: StoredFile) => void;
}

/**
 * "Datei ausgewählt" (product.md P3): view in a new tab, download as title.format, and for admins edit
 * and delete, unless the document lies in an archived folder (decision 189). The content is fetched
 * with the bearer header; a failed download shows no message (product.md P12) and nothing about it
 * is logged.
 */
export function FileDialog({ file, isAdmin, onClose, onEdit, onDelete }: FileDialogProps) {
  const { busy, run, opened } = useOpenDocument(file);
  // Listings leave out whether the text can be searched (decision 129); the file itself says so.
  const details = useQuery({
    ...fileQueryOptions(file?.id ?? 0),
    enabled: file !== null && !file.text_state,
  });
  const textState =
    file?.text_state ?? (details.data?.id === file?.id ? details.data?.text_state : undefined);
  const changeable = isAdmin && file?.archived !== true;

  return (
    <Modal opened={file !== null} onClose={onClose} title={FILE_MESSAGES.selectedTitle} centered>
      {file ? (
        <Stack gap="md">
          <Text>{FILE_MESSAGES.selectedText}</Text>
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <FileIcon format={file.format} size={28} />
            <div style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
                {file.title}.{file.format}
              </Text>
              <Text size="sm" c="dimmed">
                {formatSizeMb(file.size_bytes, { unit: 'bytes' })} · geändert{' '}
                {formatDateTime(file.updated_at)}
              </Text>
            </div>
          </Group>
          {isAdmin && file.archived ? (
            <Group gap={8} wrap="nowrap" align="flex-start">
              <ArchiveBadge />
              <Text size="sm" c="dimmed">
                {FOLDER_MESSAGES.archived}
              </Text>
            </Group>
          ) : null}
          <NotSearchableNote state={textState} />
          <AcknowledgementBanner file={file} opened={opened} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
            <Button
              leftSection={<IconEye size={18} aria-hidden />}
              loading={busy === 'view'}
              disabled={busy !== null && busy !== 'view'}
              onClick={() => void run('view')}
            >
              Ansehen
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={18} aria-hidden />}
              loading={busy === 'download'}
              disabled={busy !== null && busy !== 'download'}
              onClick={() => void run('download')}
            >
              Herunterladen
            </Button>
            {changeable && onEdit ? (
              <Button
                variant="default"
                leftSection={<IconPencil size={18} aria-hidden />}
                onClick={() => onEdit(file)}
              >
                Bearbeiten
              </Button>
            ) : null}
            {changeable && onDelete ? (
              <Button
                variant="light"
                color="red"
                leftSection={<IconTrash size={18} aria-hidden />}
                onClick={() => onDelete(file)}
              >
                Löschen
              </Button>
            ) : null}
          </SimpleGrid>
          <Button
            component={Link}
            to={`/files/show/${file.id}`}
            variant="subtle"
            leftSection={<IconInfoCircle size={18} aria-hidden />}
            onClick={onClose}
          >
            Details anzeigen
          </Button>
        </Stack>
      ) : null}
    </Modal>
  );
}
