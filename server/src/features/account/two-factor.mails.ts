import type { OutgoingMail } from '../../mail/outbox.ts';
import { mailText } from '../../mail/text.ts';

interface Recipient {
  title: string;
  lastname: string;
  email: string;
}

const WHAT = {
  enabled: 'die Zwei-Faktor-Anmeldung wurde für Ihr Konto eingerichtet.',
  disabled: 'die Zwei-Faktor-Anmeldung wurde für Ihr Konto ausgeschaltet.',
  renewed: 'für Ihr Konto wurden neue Wiederherstellungscodes erzeugt; die bisherigen gelten nicht mehr.',
  passkey_added: 'für Ihr Konto wurde ein neuer Passkey hinzugefügt.',
  passkey_removed: 'ein Passkey wurde aus Ihrem Konto entfernt.',
} as const;

/** Every change of the second factor is mailed: a member notices one they did not make. */
export function twoFactorChangedMail(user: Recipient, what: keyof typeof WHAT): OutgoingMail {
  return {
    to: user.email,
    subject: 'Zwei-Faktor-Anmeldung geändert – Gremienportal',
    text: mailText(user, [
      WHAT[what],
      '',
      'Alle anderen Sitzungen Ihres Kontos wurden beendet.',
      '',
      'Wenn Sie das nicht selbst waren, wenden Sie sich bitte sofort an die Geschäftsstelle.',
    ]),
  };
}
