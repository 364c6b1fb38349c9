import { RoleBadges } from '../../../components/role-badges';
import { ArchivedNote } from '../../../components/archive-badge';
import { PathText } from '../../../components/path-text';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload, IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import { FileIcon, fileKindOf } from '../../../components/file-icon';
import { fileNameOf, useOpenDocument } from '../../../lib/document-content';
import { formatDateTime, formatSizeMb } from '../../../lib/format';
import type { StoredFile } from '../files.api';
import { AcknowledgementBanner } from './acknowledgement-banner';
import { NotSearchableNote } from './text-state';
import { TEXT_STATE_TEXTS } from './text-state-labels';

/** One term of a description list: dl > div > (dt, dd), as HTML allows. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" c="dimmed" fz="sm">
        {label}
      </Text>
      <Text component="dd" m={0} mt={2} fw={500} style={{ overflowWrap: 'break-word', hyphens: 'auto' }}>
        {children}
      </Text>
    </div>
  );
}

interface FileDetailsProps {
  file: StoredFile;
  isAdmin: boolean;
  onDelete?: (file: StoredFile) => void;
  deleting?: boolean;
  /** Admins: where "Bearbeiten" leads (the edit page). */
  editHref?: string;
}

/**
 * /files/show/{id}: the download, the folder (the root "/" when none), "Sichtbar für" and the
 * facts of the file; admins also get "Bearbeiten" and "Löschen", unless the document lies in an
 * archived folder (decision 189).
 */
export function FileDetails({ file, isAdmin, onDelete, deleting, editHref }: FileDetailsProps) {
  const { busy, run, opened } = useOpenDocument(file);
  const changeable = isAdmin && !file.archived;

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <FileIcon format={file.format} size={36} />
          <div style={{ minWidth: 0 }}>
            <Anchor
              component="button"
              type="button"
              fw={600}
              fz="lg"
              ta="left"
              onClick={() => void run('download')}
              style={{ overflowWrap: 'break-word', hyphens: 'auto' }}
            >
              {fileNameOf(file)}
            </Anchor>
            <Text size="sm" c="dimmed">
              {fileKindOf(file.format).label} · {formatSizeMb(file.size_bytes, { unit: 'bytes' })}
            </Text>
          </div>
        </Group>
        <NotSearchableNote state={file.text_state} />
        <AcknowledgementBanner file={file} opened={opened} />
        <Group gap="sm">
          <Button
            leftSection={<IconDownload size={18} aria-hidden />}
            loading={busy === 'download'}
            onClick={() => void run('download')}
          >
            Herunterladen
          </Button>
          <Button
            variant="default"
            leftSection={<IconEye size={18} aria-hidden />}
            loading={busy === 'view'}
            onClick={() => void run('view')}
          >
            Ansehen
          </Button>
          {changeable && editHref ? (
            <Button
              component={Link}
              to={editHref}
              variant="default"
              leftSection={<IconPencil size={18} aria-hidden />}
            >
              Bearbeiten
            </Button>
          ) : null}
          {changeable && onDelete ? (
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={18} aria-hidden />}
              loading={deleting}
              onClick={() => onDelete(file)}
            >
              Löschen
            </Button>
          ) : null}
        </Group>
        {isAdmin && file.archived ? <ArchivedNote /> : null}
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="lg" m={0}>
          {/* The folder opens in the explorer, with its tree (the explorer's address, decision 070). */}
          <Detail label="Ordner">
            {file.folder ? (
              <Anchor component={Link} to={`/files?folder=${file.folder.id}`}>
                <PathText text={file.folder.breadcrumb} />
              </Anchor>
            ) : (
              '/'
            )}
          </Detail>
          <Detail label="Sichtbar für">
            <RoleBadges roles={file.roles} />
          </Detail>
          <Detail label="Hochgeladen">{formatDateTime(file.date)}</Detail>
          <Detail label="Zuletzt geändert">{formatDateTime(file.updated_at)}</Detail>
          {/* Admins see how far the search has read the document (decision 129). */}
          {isAdmin && file.text_state ? (
            <Detail label="Volltextsuche">{TEXT_STATE_TEXTS[file.text_state]}</Detail>
          ) : null}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
