import type { OutgoingMail } from '../../mail/outbox.ts';
import { mailText } from '../../mail/text.ts';

interface Recipient {
  title: string;
  lastname: string;
  email: string;
}

export function passwordResetMail(user: Recipient, link: string): OutgoingMail {
  return {
    to: user.email,
    subject: 'Passwort zurücksetzen – Gremienportal',
    text: mailText(user, [
      'für Ihr Konto im Gremienportal wurde ein neues Passwort angefordert. Über den folgenden Link können Sie ein neues Passwort festlegen:',
      '',
      link,
      '',
      // The validity is the one password-links.ts gives reset links.
      'Der Link ist 60 Minuten gültig und kann nur einmal verwendet werden.',
      '',
      'Falls Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren – Ihr bisheriges Passwort bleibt dann unverändert.',
    ]),
  };
}
