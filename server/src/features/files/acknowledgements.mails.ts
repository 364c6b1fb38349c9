import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { oneLine } from '../../mail/text.ts';

/** "Erinnerung senden": the members who have not yet confirmed a document. */
export function acknowledgementReminderMail(
  user: { title: string; lastname: string; email: string },
  file: { id: number; title: string; format: string; due: string | null },
  publicUrl: string,
): OutgoingMail {
  const title = oneLine(file.title);
  const due = file.due ? ` bis zum ${file.due.split('-').reverse().join('.')}` : '';
  return composeMail({
    to: user.email,
    subject: `Erinnerung: Bitte bestätigen Sie die Kenntnisnahme von „${title}“`,
    recipient: user,
    blocks: [
      {
        kind: 'paragraph',
        lines: [`bitte bestätigen Sie${due}, dass Sie dieses Dokument zur Kenntnis genommen haben:`],
      },
      { kind: 'paragraph', lines: [`${title}.${file.format}`] },
      {
        kind: 'paragraph',
        lines: [
          'Öffnen Sie das Dokument nach der Anmeldung hier und klicken Sie auf „Zur Kenntnis genommen“:',
        ],
      },
      { kind: 'action', label: 'Dokument öffnen', url: `${publicUrl}/files/show/${file.id}` },
    ],
    notification: { publicUrl },
  });
}
