import type { OutgoingMail } from '../../mail/outbox.ts';
import { formatEventTime, mailText, oneLine } from '../../mail/text.ts';
import type { AnnouncedEvent, NotificationRecipient } from './events.mails.ts';

/**
 * "abgesagt": to a member who said Zusage, when the event goes to the Papierkorb. `calendar` is
 * the METHOD:CANCEL entry, which takes the event out of the member's calendar.
 */
export function eventCancelledMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  calendar: string,
): OutgoingMail {
  return {
    to: user.email,
    subject: `Abgesagt: ${oneLine(event.title)}`,
    text: mailText(user, [
      'das folgende Event, zu dem Sie zugesagt hatten, wurde abgesagt:',
      '',
      oneLine(event.title),
      `Beginn: ${formatEventTime(event.start)}`,
      `Ende:   ${formatEventTime(event.end)}`,
      `Ort:    ${oneLine(event.location)}`,
      '',
      'Der beigefügte Kalendereintrag nimmt den Termin aus Ihrem Kalender, wenn Ihr Kalender ihn',
      'von hier übernommen hat.',
    ]),
    calendar: { method: 'CANCEL', content: calendar },
  };
}
