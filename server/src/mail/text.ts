/** Pieces every German mail of the portal shares. */

/** "Sehr geehrte Frau Muster," / "Sehr geehrter Herr Muster," — else a neutral greeting. */
export function salutation(user: { title: string; lastname: string }): string {
  if (user.title === 'Frau') return `Sehr geehrte Frau ${user.lastname},`;
  if (user.title === 'Herr') return `Sehr geehrter Herr ${user.lastname},`;
  return 'Guten Tag,';
}

/** A header must stay on one line, whatever a title holds. */
export const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();
