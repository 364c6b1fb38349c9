import { composeMail } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { oneLine } from '../../mail/text.ts';
import { eventFacts, type AnnouncedEvent, type NotificationRecipient } from './events.mails.ts';

/**
 * "abgesagt": to a member who said Zusage, when the event goes to the Papierkorb. `calendar` is
 * the METHOD:CANCEL entry, which takes the event out of the member's calendar.
 */
export function eventCancelledMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  calendar: string,
): OutgoingMail {
  return composeMail({
    to: user.email,
    subject: `Abgesagt: ${oneLine(event.title)}`,
    recipient: user,
    blocks: [
      { kind: 'paragraph', lines: ['das folgende Event, zu dem Sie zugesagt hatten, wurde abgesagt:'] },
      eventFacts(event),
      {
        kind: 'paragraph',
        lines: [
          'Der beigefügte Kalendereintrag nimmt den Termin aus Ihrem Kalender, wenn Ihr Kalender ihn von hier übernommen hat.',
        ],
      },
    ],
    calendar: { method: 'CANCEL', content: calendar },
  });
}
