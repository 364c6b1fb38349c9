/*
 * The German words of the Sitzungsmappe, with de-DE dates and numbers. The time zone (Europe/Berlin,
 * as events are shown) arrives with the plan.
 */

const format = (iso: string, timeZone: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('de-DE', { timeZone, ...options }).format(new Date(iso));

/** "Mittwoch, 10. März 2027". */
export const formatLongDate = (iso: string, timeZone: string) =>
  format(iso, timeZone, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
/** "10.03.2027". */
export const formatShortDate = (iso: string, timeZone: string) =>
  format(iso, timeZone, { day: '2-digit', month: '2-digit', year: 'numeric' });
/** "18:00". */
export const formatClock = (iso: string, timeZone: string) =>
  format(iso, timeZone, { hour: '2-digit', minute: '2-digit' });
/** "1 Dokument", "2 Dokumente": the count with the right form of the noun. */
export const counted = (count: number, one: string, many: string) =>
  `${count.toLocaleString('de-DE')} ${count === 1 ? one : many}`;

/** Date and time lines of the cover: one day, or from one day to another. */
export function eventWhen(start: string, end: string, timeZone: string): { date: string; time: string } {
  const clock = (iso: string) => formatClock(iso, timeZone);
  if (formatShortDate(start, timeZone) === formatShortDate(end, timeZone)) {
    const time = start === end ? `${clock(start)} Uhr` : `${clock(start)} – ${clock(end)} Uhr`;
    return { date: formatLongDate(start, timeZone), time };
  }
  return {
    date: `${formatLongDate(start, timeZone)} bis ${formatLongDate(end, timeZone)}`,
    time: `${clock(start)} Uhr bis ${clock(end)} Uhr`,
  };
}

export const BOOK_TEXT = {
  heading: 'Sitzungsmappe',
  contents: 'Tagesordnung',
  contentsContinued: 'Tagesordnung (Fortsetzung)',
  further: 'Weitere Unterlagen',
  furtherContinued: 'Weitere Unterlagen (Fortsetzung)',
  furtherIntro:
    'Diese Unterlagen gehören zur Sitzung, stehen aber nicht in dieser Mappe. Sie finden sie im Portal bei der Tagesordnung.',
  notInserted: 'konnte nicht eingefügt werden',
  noAgenda: 'Für diese Sitzung ist keine Tagesordnung hinterlegt.',
  noDocuments: 'Keine Unterlagen',
  cover: 'Deckblatt',
  date: 'Datum',
  time: 'Uhrzeit',
  place: 'Ort',
  presenter: (name: string) => `Vortrag: ${name}`,
  motion: (title: string) => `Beschlussvorlage „${title}“:`,
  /** "TOP 2.1 – Jahresabschluss". */
  item: (number: string, title: string) => `TOP ${number} – ${title}`,
  /** The footer of every page, so a passed-on copy names its source. */
  footer: (reader: string, date: string) => `Vertraulich – ${reader} – ${date}`,
  pageOf: (page: number, pages: number) => `Seite ${page} von ${pages}`,
  createdFor: (reader: string, date: string, time: string) =>
    `Erstellt für ${reader} am ${date} um ${time} Uhr. Die Mappe ist vertraulich und nur für Sie bestimmt; jede Seite nennt Ihren Namen.`,
  summary: (items: number, inserted: number, pages: number, further: number) =>
    [
      counted(items, 'Tagesordnungspunkt', 'Tagesordnungspunkte'),
      `${counted(inserted, 'Dokument', 'Dokumente')} mit ${counted(pages, 'Seite', 'Seiten')}`,
      ...(further > 0 ? [counted(further, 'weitere Unterlage', 'weitere Unterlagen')] : []),
    ].join(' · '),
} as const;
