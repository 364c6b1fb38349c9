import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { formatBytes } from '@gremienportal/contracts/sizes';
import { oneLine } from '../../mail/text.ts';

export interface FileMailRecipient {
  title: string;
  lastname: string;
  email: string;
}

export interface AnnouncedFile {
  id: number;
  title: string;
  format: string;
  sizeBytes: number;
  /** Breadcrumb of the folder; the recipient may see it (they may see the file). */
  folder: string;
}

/**
 * "Benachrichtigung an" (product.md P7.3): one mail per recipient about a new or replaced document,
 * with a link to its page. The link opens nothing without signing in and the right role.
 */
export function fileNotificationMail(
  user: FileMailRecipient,
  file: AnnouncedFile,
  kind: 'created' | 'updated',
  publicUrl: string,
): OutgoingMail {
  const title = oneLine(file.title);
  return composeMail({
    to: user.email,
    subject:
      kind === 'created'
        ? `Neues Dokument im Gremienportal: ${title}`
        : `Aktualisiertes Dokument im Gremienportal: ${title}`,
    recipient: user,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          kind === 'created'
            ? 'im Gremienportal wurde ein neues Dokument für Sie bereitgestellt:'
            : 'im Gremienportal wurde ein Dokument für Sie aktualisiert:',
        ],
      },
      {
        kind: 'paragraph',
        lines: [
          `${title}.${file.format} (${formatBytes(file.sizeBytes)})`,
          `Ordner: ${oneLine(file.folder)}`,
        ],
      },
      { kind: 'paragraph', lines: ['Sie finden das Dokument nach der Anmeldung hier:'] },
      { kind: 'action', label: 'Dokument öffnen', url: `${publicUrl}/files/show/${file.id}` },
    ],
    notification: { publicUrl },
  });
}

/**
 * A batch's mail (decision 182): one per member told at once, listing every document of the batch
 * they may see, by folder. `folders` are sorted, each with its documents sorted.
 */
export function fileBatchMail(
  user: FileMailRecipient,
  folders: readonly { breadcrumb: string; files: readonly Omit<AnnouncedFile, 'folder'>[] }[],
  publicUrl: string,
): OutgoingMail {
  const files = folders.flatMap((folder) => folder.files);
  const one = files.length === 1 ? files[0] : undefined;
  return composeMail({
    to: user.email,
    subject: one
      ? `1 neues Dokument im Gremienportal: ${oneLine(one.title)}`
      : `${files.length} neue Dokumente im Gremienportal`,
    recipient: user,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          one
            ? 'im Gremienportal wurde 1 neues Dokument für Sie bereitgestellt:'
            : `im Gremienportal wurden ${files.length} neue Dokumente für Sie bereitgestellt:`,
        ],
      },
      ...folders.map((folder) => ({
        kind: 'list' as const,
        title: `Ordner ${oneLine(folder.breadcrumb)}`,
        items: folder.files.map((file) => ({
          text: `${oneLine(file.title)}.${file.format} (${formatBytes(file.sizeBytes)})`,
          url: `${publicUrl}/files/show/${file.id}`,
        })),
      })),
      {
        kind: 'paragraph',
        lines: [
          one
            ? 'Der Link öffnet das Dokument nach der Anmeldung.'
            : 'Jeder Link öffnet sein Dokument nach der Anmeldung.',
        ],
      },
      { kind: 'action', label: 'Gremienportal öffnen', url: `${publicUrl}/` },
    ],
    notification: { publicUrl },
  });
}
