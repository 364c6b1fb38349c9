/** Pieces every German mail of the portal shares; compose.ts lays them out. */
import { EVENT_TIME_ZONE } from '@gremienportal/contracts/events';

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

/** A header must stay on one line, whatever a title holds. */
export const oneLine = (value: string) => value.replace(/[\r\n\t]+/g, ' ').trim();
