import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';

export interface InvitationRecipient {
  title: string;
  firstname: string;
  lastname: string;
  email: string;
}

/** The invitation of a new account: a set-password link, valid 7 days, usable once. */
export function invitationMail(user: InvitationRecipient, link: string, publicUrl: string): OutgoingMail {
  return composeMail({
    to: user.email,
    subject: 'Einladung zum Gremienportal',
    recipient: user,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          'für Sie wurde ein Zugang zum Gremienportal angelegt, dem geschützten Bereich für die Gremien unserer Genossenschaft.',
        ],
      },
      { kind: 'paragraph', lines: [`Ihre Anmeldung erfolgt mit dieser E-Mail-Adresse: ${user.email}`] },
      {
        kind: 'paragraph',
        lines: ['Bitte legen Sie über den folgenden Link Ihr persönliches Passwort fest:'],
      },
      { kind: 'action', label: 'Passwort festlegen', url: link },
      {
        kind: 'paragraph',
        lines: [
          'Der Link ist 7 Tage gültig und kann nur einmal verwendet werden.',
          `Danach melden Sie sich unter ${publicUrl}/login an.`,
        ],
      },
      {
        kind: 'paragraph',
        lines: [
          'Ist der Link abgelaufen, wenden Sie sich bitte an die Geschäftsstelle; sie sendet Ihnen gern eine neue Einladung.',
          'Haben Sie diese E-Mail unerwartet erhalten, können Sie sie ignorieren.',
        ],
      },
    ],
  });
}
