import { formatBerlinDateTime } from '@gremienportal/contracts/audit';
import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';

/* The mails of a vote (decision 190): one per elector, queued in the transaction of the change. */

export interface ElectorMailFacts {
  email: string;
  title: string;
  lastname: string;
}

interface MotionFacts {
  id: number;
  title: string;
  committeeName: string;
}

/** "01.12.2026 18:00 Uhr" in Europe/Berlin. */
export const germanDeadline = (iso: string) => `${formatBerlinDateTime(iso).slice(0, 16)} Uhr`;

const motionUrl = (publicUrl: string, motion: MotionFacts) =>
  `${publicUrl}/beschluesse/vorlagen/${motion.id}`;

export function umlaufOpenedMail(
  to: ElectorMailFacts,
  motion: MotionFacts,
  deadline: string,
  publicUrl: string,
): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: `Abstimmung im Umlaufverfahren: ${motion.title}`,
    recipient: to,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          `Das Gremium „${motion.committeeName}“ beschließt im Umlaufverfahren über „${motion.title}“.`,
          `Ihre Stimme wird bis zum ${germanDeadline(deadline)} erbeten.`,
        ],
      },
      {
        kind: 'facts',
        rows: [
          ['Gremium', motion.committeeName],
          ['Frist', germanDeadline(deadline)],
        ],
      },
      { kind: 'action', label: 'Zur Abstimmung', url: motionUrl(publicUrl, motion) },
    ],
  });
}

export function objectionStoppedMail(
  to: ElectorMailFacts,
  motion: MotionFacts,
  publicUrl: string,
): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: `Umlaufverfahren durch Widerspruch beendet: ${motion.title}`,
    recipient: to,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          `Dem Umlaufverfahren über „${motion.title}“ wurde widersprochen; es ist damit beendet.`,
          'Die Beschlussvorlage kann in der nächsten Sitzung behandelt werden.',
        ],
      },
      { kind: 'action', label: 'Beschlussvorlage öffnen', url: motionUrl(publicUrl, motion) },
    ],
  });
}

export function voidedMail(to: ElectorMailFacts, motion: MotionFacts, publicUrl: string): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: `Abstimmung ungültig: ${motion.title}`,
    recipient: to,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          `Die Beschlussvorlage „${motion.title}“ wurde nach dem Öffnen der Abstimmung geändert.`,
          'Die bisherigen Stimmen sind ungültig; die Abstimmung beginnt von vorn.',
        ],
      },
      { kind: 'action', label: 'Beschlussvorlage öffnen', url: motionUrl(publicUrl, motion) },
    ],
  });
}

export function reminderMail(
  to: ElectorMailFacts,
  motion: MotionFacts,
  deadline: string,
  publicUrl: string,
): OutgoingMail {
  return composeMail({
    to: to.email,
    subject: `Erinnerung: Ihre Stimme wird erbeten – ${motion.title}`,
    recipient: to,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          `Im Umlaufverfahren des Gremiums „${motion.committeeName}“ über „${motion.title}“ fehlt noch Ihre Stimme.`,
          `Sie können bis zum ${germanDeadline(deadline)} abstimmen oder dem Verfahren widersprechen.`,
        ],
      },
      { kind: 'action', label: 'Zur Abstimmung', url: motionUrl(publicUrl, motion) },
    ],
  });
}
