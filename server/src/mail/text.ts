/** Pieces every German mail of the portal shares. */

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
