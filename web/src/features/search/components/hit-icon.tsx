import { IconCalendarEvent, IconGavel } from '@tabler/icons-react';
import { FileIcon } from '../../../components/file-icon';
import type { SearchType } from '../search.api';

/** The kind's icon; a document shows its file type's. Decorative: the kind is written next to it. */
export function HitIcon({
  type,
  format,
  size = 22,
}: {
  type: SearchType;
  format: string | null;
  size?: number;
}) {
  if (type === 'event')
    return (
      <IconCalendarEvent
        size={size}
        stroke={1.6}
        aria-hidden
        focusable={false}
        style={{ flexShrink: 0, color: 'var(--mantine-color-teal-9)' }}
      />
    );
  if (type === 'resolution')
    return (
      <IconGavel
        size={size}
        stroke={1.6}
        aria-hidden
        focusable={false}
        style={{ flexShrink: 0, color: 'var(--mantine-color-grape-9)' }}
      />
    );
  return <FileIcon format={type === 'folder' ? 'folder' : (format ?? '')} size={size} />;
}
