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
