import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { formatEventTime } from '../../mail/text.ts';

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

export interface EmailChange {
  oldEmail: string;
  newEmail: string;
  /** Who changed it: "Vorname Nachname", with the key's name when a key did it. */
  by: string;
  at: string;
}

/**
 * Decision 146: a changed address is told to both addresses. The old one learns what changed, who
 * changed it and whom to contact, so an administrator cannot quietly move a member's account to an
 * address of their own (and then take it over with a password reset).
 */
export function emailChangedMails(user: InvitationRecipient, change: EmailChange): OutgoingMail[] {
  const facts = {
    kind: 'facts' as const,
    rows: [
      ['Bisherige Adresse', change.oldEmail],
      ['Neue Adresse', change.newEmail],
      ['Geändert von', change.by],
      ['Zeitpunkt', formatEventTime(change.at)],
    ] as const,
  };
  const contact = {
    kind: 'paragraph' as const,
    lines: [
      'Wenn Sie diese Änderung nicht veranlasst haben, wenden Sie sich bitte sofort an die Geschäftsstelle (nicht über die neue Adresse): Sie kann die Änderung rückgängig machen und Ihr Konto sperren.',
    ],
  };
  const subject = 'E-Mail-Adresse Ihres Kontos geändert – Gremienportal';
  return [
    composeMail({
      to: change.oldEmail,
      subject,
      recipient: user,
      blocks: [
        {
          kind: 'paragraph',
          lines: [
            'die E-Mail-Adresse Ihres Kontos im Gremienportal wurde geändert. An diese Adresse gehen ab sofort keine E-Mails des Portals mehr, und Sie melden sich mit der neuen Adresse an.',
          ],
        },
        facts,
        contact,
      ],
    }),
    composeMail({
      to: change.newEmail,
      subject,
      recipient: user,
      blocks: [
        {
          kind: 'paragraph',
          lines: [
            'Ihr Konto im Gremienportal ist jetzt mit dieser E-Mail-Adresse verbunden. Die bisherige Adresse wurde ebenfalls benachrichtigt.',
          ],
        },
        facts,
        contact,
      ],
    }),
  ];
}
