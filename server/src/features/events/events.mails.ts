import { ATTENDANCE_LABELS, ATTENDANCE_STATUSES } from '@gremienportal/contracts/meetings';
import { composeMail, type MailBlock } from '../../mail/compose.ts';
import type { OutgoingMail } from '../../mail/outbox.ts';
import { formatEventTime, oneLine } from '../../mail/text.ts';

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

/** The event's title, then when and where. */
export const eventFacts = (event: AnnouncedEvent): MailBlock => ({
  kind: 'facts',
  title: oneLine(event.title),
  rows: [
    ['Beginn', formatEventTime(event.start)],
    ['Ende', formatEventTime(event.end)],
    ['Ort', oneLine(event.location)],
  ],
});

/**
 * One link per answer (decision 130): the page preselects it and saves only when the member
 * confirms, so a mail scanner that follows links answers nothing.
 */
export function answerLinkBlocks(publicUrl: string, eventId: number): MailBlock[] {
  const page = eventPageUrl(publicUrl, eventId);
  return [
    {
      kind: 'paragraph',
      lines: [
        'Ihre Zu- oder Absage geben Sie über einen dieser Links (nach der Anmeldung bestätigen Sie sie mit einem Klick):',
      ],
    },
    {
      kind: 'links',
      links: ATTENDANCE_STATUSES.map((status) => ({
        label: ATTENDANCE_LABELS[status],
        url: `${page}?antwort=${status}`,
      })),
    },
  ];
}

/** "Benachrichtigung an": one mail per recipient about a new event, with a link to it. */
export function eventNotificationMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  publicUrl: string,
): OutgoingMail {
  return composeMail({
    to: user.email,
    subject: `Neues Event im Gremienportal: ${oneLine(event.title)}`,
    recipient: user,
    blocks: [
      { kind: 'paragraph', lines: ['im Gremienportal wurde ein neues Event für Sie veröffentlicht:'] },
      eventFacts(event),
      {
        kind: 'paragraph',
        lines: ['Alle Angaben, die Beschreibung und gegebenenfalls eine Informationsdatei finden Sie hier:'],
      },
      { kind: 'action', label: 'Event ansehen', url: eventPageUrl(publicUrl, event.id) },
      ...answerLinkBlocks(publicUrl, event.id),
    ],
    notification: { publicUrl },
  });
}
