import { DIGEST_HOUR } from '@gremienportal/contracts/notifications';
import { fromBerlinLocal, wallClockInBerlin } from '@gremienportal/contracts/events';

export type Cadence = 'daily' | 'weekly';

/** A digest's period: the Berlin date of its morning (a Monday for weekly ones) and that morning's 07:00. */
export interface DigestPeriod {
  cadence: Cadence;
  /** "YYYY-MM-DD", the key of `notification_digests`. */
  period: string;
  /** 07:00 Europe/Berlin of that day: the digest holds what was queued before it. */
  cutoff: Date;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Calendar arithmetic on a Berlin date, done in UTC where no day has 23 or 25 hours. */
function shiftDate(date: { year: number; month: number; day: number }, days: number) {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function periodOf(cadence: Cadence, date: { year: number; month: number; day: number }): DigestPeriod {
  return {
    cadence,
    period: `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`,
    cutoff: fromBerlinLocal({ ...date, hour: DIGEST_HOUR, minute: 0, second: 0 }),
  };
}

/**
 * The latest period of each cadence whose 07:00 (Europe/Berlin) has come by `now`: daily the most
 * recent morning, weekly the most recent Monday morning. A period missed while the portal was down
 * is still the latest until the next morning comes, so the next run catches it up.
 */
export function duePeriods(now: Date): Record<Cadence, DigestPeriod> {
  const wall = wallClockInBerlin(now);
  const today = { year: wall.year, month: wall.month, day: wall.day };
  const morning = wall.hour < DIGEST_HOUR ? shiftDate(today, -1) : today;
  const weekday = new Date(Date.UTC(morning.year, morning.month - 1, morning.day)).getUTCDay();
  const monday = shiftDate(morning, -((weekday + 6) % 7));
  return { daily: periodOf('daily', morning), weekly: periodOf('weekly', monday) };
}
