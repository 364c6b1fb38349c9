import type { ReactNode } from 'react';
import { Group, Text } from '@mantine/core';
import { fileNameOf } from '../lib/document-content';
import { formatSizeMb } from '../lib/format';
import { FileIcon, fileKindOf } from './file-icon';

interface DocumentSummaryProps {
  title: string;
  format: string;
  /** Unknown for a search hit: then only the kind is named. */
  sizeBytes?: number | null;
  /** Below the kind and size: a note such as who cannot see the document. */
  children?: ReactNode;
}

/** A document as lists show it: its type's icon, `title.format`, the type's name and the size. */
export function DocumentSummary({ title, format, sizeBytes, children }: DocumentSummaryProps) {
  const size =
    sizeBytes === null || sizeBytes === undefined ? '' : formatSizeMb(sizeBytes, { unit: 'bytes' });
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0, flex: 1 }}>
      <FileIcon format={format} size={26} />
      <div style={{ minWidth: 0 }}>
        <Text fw={500} style={{ overflowWrap: 'anywhere', hyphens: 'auto' }}>
          {fileNameOf({ title, format })}
        </Text>
        <Text size="sm" c="dimmed">
          {fileKindOf(format).label}
          {size ? ` · ${size}` : ''}
        </Text>
        {children}
      </div>
    </Group>
  );
}
