import { isCalendarDate } from '@gremienportal/contracts/committees';

/**
 * What a member types into a day field: `1.7.2026`, `01.07.2026` or `2026-07-01`, as `2026-07-01`;
 * null for anything else or a day that does not exist (the calendar's own parser reads `01.07.2026`
 * as 7 January).
 */
export function parseGermanDay(text: string): string | null {
  const trimmed = text.trim();
  const german = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(trimmed);
  const day = german ? `${german[3]}-${german[2]!.padStart(2, '0')}-${german[1]!.padStart(2, '0')}` : trimmed;
  return isCalendarDate(day) ? day : null;
}
