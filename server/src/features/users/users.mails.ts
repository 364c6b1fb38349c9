import type { OutgoingMail } from '../../mail/outbox.ts';
import { mailText } from '../../mail/text.ts';

export interface InvitationRecipient {
  title: string;
  firstname: string;
  lastname: string;
  email: string;
}

/** The invitation of a new account: a set-password link, valid 7 days, usable once. */
export function invitationMail(user: InvitationRecipient, link: string, publicUrl: string): OutgoingMail {
  return {
    to: user.email,
    subject: 'Einladung zum Gremienportal',
    text: mailText(user, [
      'für Sie wurde ein Zugang zum Gremienportal angelegt, dem geschützten Bereich für die Gremien unserer Genossenschaft.',
      '',
      `Ihre Anmeldung erfolgt mit dieser E-Mail-Adresse: ${user.email}`,
      '',
      'Bitte legen Sie über den folgenden Link Ihr persönliches Passwort fest:',
      '',
      link,
      '',
      'Der Link ist 7 Tage gültig und kann nur einmal verwendet werden.',
      `Danach melden Sie sich unter ${publicUrl}/login an.`,
      '',
      'Ist der Link abgelaufen, wenden Sie sich bitte an die Geschäftsstelle; sie sendet Ihnen gern eine neue Einladung.',
      'Haben Sie diese E-Mail unerwartet erhalten, können Sie sie ignorieren.',
    ]),
  };
}
