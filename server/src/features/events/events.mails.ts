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

/** What a mail tells of an event, from its row. */
export const announcedEvent = (event: {
  id: number;
  title: string;
  start_at: string;
  end_at: string;
  location: string;
}): AnnouncedEvent => ({
  id: event.id,
  title: event.title,
  start: event.start_at,
  end: event.end_at,
  location: event.location,
});

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

/**
 * A mail about one event: the subject ends with the event's title; the opening sentence, the
 * event's facts, then the rest.
 */
export function eventMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  mail: { subject: string; opening: string; rest: MailBlock[]; notification?: { publicUrl: string } },
): OutgoingMail {
  return composeMail({
    to: user.email,
    subject: `${mail.subject}${oneLine(event.title)}`,
    recipient: user,
    blocks: [{ kind: 'paragraph', lines: [mail.opening] }, eventFacts(event), ...mail.rest],
    ...(mail.notification ? { notification: mail.notification } : {}),
  });
}

/** "Benachrichtigung an": one mail per recipient about a new event, with a link to it. */
export function eventNotificationMail(
  user: NotificationRecipient,
  event: AnnouncedEvent,
  publicUrl: string,
): OutgoingMail {
  return eventMail(user, event, {
    subject: 'Neues Event im Gremienportal: ',
    opening: 'im Gremienportal wurde ein neues Event für Sie veröffentlicht:',
    rest: [
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
