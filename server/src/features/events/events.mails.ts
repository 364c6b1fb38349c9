import { EVENT_TIME_ZONE } from '@gremienportal/contracts/events';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { mailText, oneLine } from '../../mail/text.ts';

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

const dateTime = new Intl.DateTimeFormat('de-DE', {
  timeZone: EVENT_TIME_ZONE,
  weekday: 'long',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** "Mittwoch, 15.07.2026, 18:00 Uhr" in Europe/Berlin. */
export const formatEventTime = (iso: string) => `${dateTime.format(new Date(iso))} Uhr`;

/** "Benachrichtigung an": one mail per recipient about a new event, with a link to it. */
export function eventNotificationMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  publicUrl: string,
): OutgoingMail {
  return {
    to: user.email,
    subject: `Neues Event im Gremienportal: ${oneLine(event.title)}`,
    text: mailText(user, [
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
    ]),
  };
}
