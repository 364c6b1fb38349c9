import { composeMail, type MailBlock } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { formatBytes } from '@gremienportal/contracts/sizes';
import { formatEventTime, oneLine } from '../../mail/text.ts';
import type { Cadence } from './digest-periods.ts';

export interface DigestRecipient {
  title: string;
  lastname: string;
  email: string;
}

export interface DigestFolder {
  /** Breadcrumb of a folder the member may see. */
  breadcrumb: string;
  files: { id: number; title: string; format: string; sizeBytes: number; updated: boolean }[];
}

export interface DigestEventItem {
  id: number;
  title: string;
  start: string;
  location: string;
  updated: boolean;
}

/** "1 neues Dokument", "3 neue Dokumente", "1 aktualisiertes Event", … */
function counted(n: number, noun: 'Dokument' | 'Event', updated: boolean): string {
  const adjective = updated ? (n === 1 ? 'aktualisiertes' : 'aktualisierte') : n === 1 ? 'neues' : 'neue';
  const plural = noun === 'Dokument' ? 'Dokumente' : 'Events';
  return `${n} ${adjective} ${n === 1 ? noun : plural}`;
}

/** "a", "a und b", "a, b und c". */
function joined(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} und ${parts.at(-1)}`;
}

/** What the digest holds, in one line: "2 neue Dokumente, 1 aktualisiertes Dokument und 1 neues Event". */
export function digestSummary(folders: readonly DigestFolder[], events: readonly DigestEventItem[]): string {
  const files = folders.flatMap((folder) => folder.files);
  const parts: string[] = [];
  for (const [list, noun] of [
    [files, 'Dokument'],
    [events, 'Event'],
  ] as const) {
    const created = list.filter((item) => !item.updated).length;
    const updated = list.length - created;
    if (created > 0) parts.push(counted(created, noun, false));
    if (updated > 0) parts.push(counted(updated, noun, true));
  }
  return joined(parts);
}

/**
 * A member's daily or weekly digest (decision 131): what the admins' "Benachrichtigung an" told them
 * about since the last one and they may still see, documents grouped by folder, then events.
 */
export function digestMail(
  user: DigestRecipient,
  cadence: Cadence,
  folders: readonly DigestFolder[],
  events: readonly DigestEventItem[],
  publicUrl: string,
): OutgoingMail {
  const summary = digestSummary(folders, events);
  const blocks: MailBlock[] = [
    {
      kind: 'paragraph',
      lines: [
        `seit Ihrer letzten ${cadence === 'daily' ? 'täglichen' : 'wöchentlichen'} Zusammenfassung gibt es im Gremienportal für Sie ${summary}:`,
      ],
    },
  ];
  if (folders.length > 0) {
    blocks.push({ kind: 'heading', text: 'Dokumente' });
    for (const folder of folders) {
      blocks.push({
        kind: 'list',
        title: `Ordner ${oneLine(folder.breadcrumb)}`,
        items: folder.files.map((file) => ({
          text: `${oneLine(file.title)}.${file.format} (${formatBytes(file.sizeBytes)})${file.updated ? ', aktualisiert' : ''}`,
          url: `${publicUrl}/files/show/${file.id}`,
        })),
      });
    }
  }
  if (events.length > 0) {
    blocks.push(
      { kind: 'heading', text: 'Events' },
      {
        kind: 'list',
        items: events.map((event) => ({
          text: `${oneLine(event.title)}${event.updated ? ' (geändert)' : ''}: ${formatEventTime(event.start)}, ${oneLine(event.location)}`,
          url: `${publicUrl}/events/show/${event.id}`,
        })),
      },
    );
  }
  blocks.push(
    {
      kind: 'paragraph',
      lines: ['Nach der Anmeldung finden Sie alles auch unter „Neu für Sie“ auf der Startseite:'],
    },
    { kind: 'action', label: 'Gremienportal öffnen', url: `${publicUrl}/` },
  );
  return composeMail({
    to: user.email,
    subject: `${cadence === 'daily' ? 'Tägliche' : 'Wöchentliche'} Zusammenfassung aus dem Gremienportal: ${summary}`,
    recipient: user,
    blocks,
    notification: { publicUrl },
  });
}
