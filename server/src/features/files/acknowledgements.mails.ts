import type { OutgoingMail } from '../../mail/outbox.ts';
import { notificationText, oneLine } from '../../mail/text.ts';

/** "Erinnerung senden": the members who have not yet confirmed a document. */
export function acknowledgementReminderMail(
  user: { title: string; lastname: string; email: string },
  file: { id: number; title: string; format: string; due: string | null },
  publicUrl: string,
): OutgoingMail {
  const title = oneLine(file.title);
  const due = file.due ? ` bis zum ${file.due.split('-').reverse().join('.')}` : '';
  return {
    to: user.email,
    subject: `Erinnerung: Bitte bestätigen Sie die Kenntnisnahme von „${title}“`,
    text: notificationText(
      user,
      [
        `bitte bestätigen Sie${due}, dass Sie dieses Dokument zur Kenntnis genommen haben:`,
        '',
        `${title}.${file.format}`,
        '',
        'Öffnen Sie das Dokument nach der Anmeldung hier und klicken Sie auf „Zur Kenntnis genommen“:',
        '',
        `${publicUrl}/files/show/${file.id}`,
      ],
      publicUrl,
    ),
  };
}
