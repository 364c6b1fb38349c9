import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { oneLine } from '../../mail/text.ts';
import {
  answerLinkBlocks,
  eventFacts,
  eventPageUrl,
  type AnnouncedEvent,
  type NotificationRecipient,
} from '../events/events.mails.ts';

/** "Erinnerung senden": to a holder of the event's roles who has not answered yet. */
export function attendanceReminderMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  publicUrl: string,
): OutgoingMail {
  return composeMail({
    to: user.email,
    subject: `Erinnerung: Bitte sagen Sie zu oder ab – ${oneLine(event.title)}`,
    recipient: user,
    blocks: [
      {
        kind: 'paragraph',
        lines: ['für das folgende Event im Gremienportal liegt von Ihnen noch keine Zu- oder Absage vor:'],
      },
      eventFacts(event),
      ...answerLinkBlocks(publicUrl, event.id),
      { kind: 'paragraph', lines: ['Alle Angaben zum Event finden Sie hier:'] },
      { kind: 'action', label: 'Event ansehen', url: eventPageUrl(publicUrl, event.id) },
    ],
  });
}

/**
 * The Protokoll is published: to those who said Zusage and still see the event. Only the link:
 * the file itself stays behind the sign-in.
 */
export function minutesPublishedMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  publicUrl: string,
): OutgoingMail {
  return composeMail({
    to: user.email,
    subject: `Protokoll veröffentlicht: ${oneLine(event.title)}`,
    recipient: user,
    blocks: [
      {
        kind: 'paragraph',
        lines: [
          'für das folgende Event, zu dem Sie zugesagt hatten, wurde das Protokoll der Sitzung veröffentlicht:',
        ],
      },
      eventFacts(event),
      { kind: 'paragraph', lines: ['Sie finden es nach der Anmeldung auf der Seite des Events:'] },
      { kind: 'action', label: 'Protokoll ansehen', url: eventPageUrl(publicUrl, event.id) },
    ],
  });
}
