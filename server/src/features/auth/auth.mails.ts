import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';

interface Recipient {
  title: string;
  lastname: string;
  email: string;
}

export function passwordResetMail(user: Recipient, link: string): OutgoingMail {
  return composeMail({
    to: user.email,
    subject: 'Passwort zurücksetzen – Gremienportal',
    recipient: user,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          'für Ihr Konto im Gremienportal wurde ein neues Passwort angefordert. Über den folgenden Link können Sie ein neues Passwort festlegen:',
        ],
      },
      { kind: 'action', label: 'Neues Passwort festlegen', url: link },
      // The validity is the one password-links.ts gives reset links.
      { kind: 'paragraph', lines: ['Der Link ist 60 Minuten gültig und kann nur einmal verwendet werden.'] },
      {
        kind: 'paragraph',
        lines: [
          'Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren – Ihr bisheriges Passwort bleibt dann unverändert.',
        ],
      },
    ],
  });
}
