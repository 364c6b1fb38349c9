import type { OutgoingMail } from '../../mail/outbox.ts';
import { formatEventTime, mailText, oneLine } from '../../mail/text.ts';
import {
  answerLinkLines,
  eventPageUrl,
  type AnnouncedEvent,
  type NotificationRecipient,
} from './events.mails.ts';

const eventLines = (event: AnnouncedEvent) => [
  oneLine(event.title),
  `Beginn: ${formatEventTime(event.start)}`,
  `Ende:   ${formatEventTime(event.end)}`,
  `Ort:    ${oneLine(event.location)}`,
];

/** "Erinnerung senden": to a holder of the event's roles who has not answered yet. */
export function attendanceReminderMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  publicUrl: string,
): OutgoingMail {
  return {
    to: user.email,
    subject: `Erinnerung: Bitte sagen Sie zu oder ab – ${oneLine(event.title)}`,
    text: mailText(user, [
      'für das folgende Event im Gremienportal liegt von Ihnen noch keine Zu- oder Absage vor:',
      '',
      ...eventLines(event),
      '',
      ...answerLinkLines(publicUrl, event.id),
      '',
      'Alle Angaben zum Event finden Sie hier:',
      '',
      eventPageUrl(publicUrl, event.id),
    ]),
  };
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
  return {
    to: user.email,
    subject: `Protokoll veröffentlicht: ${oneLine(event.title)}`,
    text: mailText(user, [
      'für das folgende Event, zu dem Sie zugesagt hatten, wurde das Protokoll der Sitzung veröffentlicht:',
      '',
      ...eventLines(event),
      '',
      'Sie finden es nach der Anmeldung auf der Seite des Events:',
      '',
      eventPageUrl(publicUrl, event.id),
    ]),
  };
}
