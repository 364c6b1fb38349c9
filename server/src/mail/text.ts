/** Pieces every German mail of the portal shares. */
import { EVENT_TIME_ZONE } from '@gremienportal/contracts/events';

const sizeFormat = new Intl.NumberFormat('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** "1,25 MB" as everywhere in the portal (1 MB = 1024 × 1024 bytes). */
export const formatSize = (bytes: number) => `${sizeFormat.format(bytes / 1024 / 1024)} MB`;

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

/** "Sehr geehrte Frau Muster," / "Sehr geehrter Herr Muster," — else a neutral greeting. */
function salutation(user: { title: string; lastname: string }): string {
  if (user.title === 'Frau') return `Sehr geehrte Frau ${user.lastname},`;
  if (user.title === 'Herr') return `Sehr geehrter Herr ${user.lastname},`;
  return 'Guten Tag,';
}

/** A header must stay on one line, whatever a title holds. */
export const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();

/** A mail's text: the salutation, then `body` (its lines), then the portal's closing. */
export const mailText = (user: { title: string; lastname: string }, body: string[]) =>
  [salutation(user), '', ...body, '', 'Mit freundlichen Grüßen', 'Ihr Gremienportal'].join('\n');

/**
 * A notification mail (issue 21): like `mailText`, ending with where the member chooses how often
 * they are told about new documents and events.
 */
export const notificationText = (
  user: { title: string; lastname: string },
  body: string[],
  publicUrl: string,
) =>
  [
    mailText(user, body),
    '',
    '--',
    'Wie oft Sie über neue Dokumente und Events benachrichtigt werden (sofort, täglich, wöchentlich oder nie), stellen Sie hier ein:',
    `${publicUrl}/account`,
  ].join('\n');
