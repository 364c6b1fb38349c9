import { ATTENDANCE_LABELS, ATTENDANCE_STATUSES } from '@gremienportal/contracts/meetings';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { formatEventTime, notificationText, oneLine } from '../../mail/text.ts';

export interface NotificationRecipient {
  title: string;
  firstname: string;
  lastname: string;
  email: string;
}

export interface AnnouncedEvent {
  id: number;
  title: string;
  /** ISO 8601 UTC. */
  start: string;
  end: string;
  location: string;
}

/** The event page in the web app. */
export const eventPageUrl = (publicUrl: string, eventId: number) => `${publicUrl}/events/show/${eventId}`;

/**
 * One link per answer (decision 130): the page preselects it and saves only when the member
 * confirms, so a mail scanner that follows links answers nothing.
 */
export function answerLinkLines(publicUrl: string, eventId: number): string[] {
  const page = eventPageUrl(publicUrl, eventId);
  const width = Math.max(...ATTENDANCE_STATUSES.map((status) => ATTENDANCE_LABELS[status].length)) + 2;
  return [
    'Ihre Zu- oder Absage geben Sie über einen dieser Links (nach der Anmeldung bestätigen Sie sie mit einem Klick):',
    '',
    ...ATTENDANCE_STATUSES.map(
      (status) => `${`${ATTENDANCE_LABELS[status]}:`.padEnd(width)}${page}?antwort=${status}`,
    ),
  ];
}

/** "Benachrichtigung an": one mail per recipient about a new event, with a link to it. */
export function eventNotificationMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  publicUrl: string,
): OutgoingMail {
  return {
    to: user.email,
    subject: `Neues Event im Gremienportal: ${oneLine(event.title)}`,
    text: notificationText(
      user,
      [
        'im Gremienportal wurde ein neues Event für Sie veröffentlicht:',
        '',
        oneLine(event.title),
        `Beginn: ${formatEventTime(event.start)}`,
        `Ende:   ${formatEventTime(event.end)}`,
        `Ort:    ${oneLine(event.location)}`,
        '',
        'Alle Angaben, die Beschreibung und gegebenenfalls eine Informationsdatei finden Sie hier:',
        '',
        `${publicUrl}/events/show/${event.id}`,
        '',
        ...answerLinkLines(publicUrl, event.id),
      ],
      publicUrl,
    ),
  };
}
