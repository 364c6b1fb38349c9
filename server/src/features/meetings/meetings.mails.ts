import type { OutgoingMail } from '../../mail/outbox.ts';
import {
  answerLinkBlocks,
  eventMail,
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
  return eventMail(user, event, {
    subject: 'Erinnerung: Bitte sagen Sie zu oder ab – ',
    opening: 'für das folgende Event im Gremienportal liegt von Ihnen noch keine Zu- oder Absage vor:',
    rest: [
      ...answerLinkBlocks(publicUrl, event.id),
      { kind: 'paragraph', lines: ['Alle Angaben zum Event finden Sie hier:'] },
      { kind: 'action', label: 'Event ansehen', url: eventPageUrl(publicUrl, event.id) },
    ],
  });
}

/**
 * The Protokoll is published: to those who said Zusage and still see the event, or (`accepted`
 * false) to every invitee who does. Only the link: the file itself stays behind the sign-in.
 */
export function minutesPublishedMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  publicUrl: string,
  accepted = true,
): OutgoingMail {
  return eventMail(user, event, {
    subject: 'Protokoll veröffentlicht: ',
    opening: accepted
      ? 'für das folgende Event, zu dem Sie zugesagt hatten, wurde das Protokoll der Sitzung veröffentlicht:'
      : 'für die folgende Sitzung wurde das Protokoll veröffentlicht:',
    rest: [
      { kind: 'paragraph', lines: ['Sie finden es nach der Anmeldung auf der Seite des Events:'] },
      { kind: 'action', label: 'Protokoll ansehen', url: eventPageUrl(publicUrl, event.id) },
    ],
  });
}
