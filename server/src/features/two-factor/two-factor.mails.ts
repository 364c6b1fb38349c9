import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';

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
  return composeMail({
    to: user.email,
    subject: 'Zwei-Faktor-Anmeldung geändert – Gremienportal',
    recipient: user,
    blocks: [
      { kind: 'paragraph', lines: [WHAT[what]] },
      { kind: 'paragraph', lines: ['Alle anderen Sitzungen Ihres Kontos wurden beendet.'] },
      {
        kind: 'paragraph',
        lines: ['Wenn Sie das nicht selbst waren, wenden Sie sich bitte sofort an die Geschäftsstelle.'],
      },
    ],
  });
}
