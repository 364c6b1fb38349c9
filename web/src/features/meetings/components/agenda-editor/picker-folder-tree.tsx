import { useState, type CSSProperties } from 'react';
import { Button, Checkbox, Group, Loader, Text } from '@mantine/core';
import { IconCaretRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ExplorerItem } from '@gremienportal/contracts/files';
import { FileIcon } from '../../../../components/file-icon';
import { fileNameOf } from '../../../../lib/document-content';
import { formatSizeMb } from '../../../../lib/format';
import type { DraftDocument } from '../../agenda-draft';
import { pickerFolderQueryOptions } from '../../agenda.api';

/** The picker's choice: which documents are ticked, and ticking or unticking one. */
export interface PickerSelection {
  has: (id: number) => boolean;
  toggle: (document: DraftDocument, checked: boolean) => void;
}

/** 15 px per level, as the explorer's tree (product.md P3). */
const indent = (depth: number) => ({ paddingInlineStart: `calc(${depth} * 15px)` });

export const PLAIN_LIST: CSSProperties = { listStyle: 'none', margin: 0, padding: 0 };
const NAME: CSSProperties = { minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'normal' };

/** A document to tick: icon, `title.format` and, where known, the size or the folder path. */
export function DocumentOption({
  document,
  detail,
  selection,
  depth = 0,
}: {
  document: DraftDocument;
  detail?: string;
  selection: PickerSelection;
  depth?: number;
}) {
  return (
    <li style={{ ...indent(depth), paddingBlock: 6 }}>
      <Checkbox
        checked={selection.has(document.id)}
        onChange={(event) => selection.toggle(document, event.currentTarget.checked)}
        label={
          <Group gap={6} wrap="nowrap" component="span" align="flex-start">
            <FileIcon format={document.format} size={20} />
            <span style={NAME}>{fileNameOf(document)}</span>
          </Group>
        }
        description={detail}
        // The whole row (box and label) takes the tap, at least 44 px high (decision 124).
        styles={{
          body: { alignItems: 'flex-start', minHeight: '2.75rem' },
          labelWrapper: { flex: 1, minWidth: 0 },
        }}
      />
    </li>
  );
}

const asDocument = (file: Extract<ExplorerItem, { type: 'file' }>): DraftDocument => ({
  id: file.id,
  title: file.title,
  format: file.format,
  size_bytes: file.size_bytes,
});

/** A folder that opens on a click and then lists its subfolders and documents. */
function FolderNode({
  folder,
  depth,
  selection,
}: {
  folder: Extract<ExplorerItem, { type: 'folder' }>;
  depth: number;
  selection: PickerSelection;
}) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <Button
        variant="subtle"
        color="dark"
        fullWidth
        justify="flex-start"
        data-wrap
        style={{ ...indent(depth), fontWeight: 500 }}
        aria-expanded={open}
        onClick={() => setOpen((current) => !current)}
        leftSection={
          <Group gap={6} wrap="nowrap" component="span">
            <IconCaretRight
              size={18}
              aria-hidden
              style={{ transform: open ? 'rotate(90deg)' : undefined, transition: 'transform 120ms ease' }}
            />
            <FileIcon format="folder" size={20} />
          </Group>
        }
      >
        <span style={NAME}>{folder.title}</span>
      </Button>
      {open ? <FolderContents folderId={folder.id} depth={depth + 1} selection={selection} /> : null}
    </li>
  );
}

/** The subfolders and documents of one folder, loaded when it is opened. */
export function FolderContents({
  folderId,
  depth,
  selection,
}: {
  folderId: number;
  depth: number;
  selection: PickerSelection;
}) {
  const listing = useQuery(pickerFolderQueryOptions(folderId));
  if (listing.isPending) {
    return (
      <Group gap="xs" py={6} style={indent(depth)} role="status">
        <Loader size={16} aria-hidden />
        <Text size="sm">Wird geladen …</Text>
      </Group>
    );
  }
  if (listing.isError) {
    return (
      <Group gap="xs" py={6} style={indent(depth)} role="alert">
        <Text size="sm" c="red.8">
          Daten konnten nicht geladen werden
        </Text>
        <Button variant="default" size="xs" onClick={() => void listing.refetch()}>
          Erneut versuchen
        </Button>
      </Group>
    );
  }
  if (listing.data.length === 0) {
    return (
      <Text size="sm" c="dimmed" py={6} style={indent(depth)}>
        Ordner leer
      </Text>
    );
  }
  return (
    <ul style={PLAIN_LIST}>
      {listing.data.map((entry) =>
        entry.type === 'folder' ? (
          <FolderNode key={`folder-${entry.id}`} folder={entry} depth={depth} selection={selection} />
        ) : (
          <DocumentOption
            key={`file-${entry.id}`}
            document={asDocument(entry)}
            detail={formatSizeMb(entry.size_bytes, { unit: 'bytes' })}
            selection={selection}
            depth={depth}
          />
        ),
      )}
    </ul>
  );
}
