import { fromBerlinLocal, toBerlinLocal, wallClockInBerlin } from '@gremienportal/contracts/events';
import { MOTION_MESSAGES } from '@gremienportal/contracts/resolutions';

/*
 * The deadline of an Umlaufverfahren as the open dialog's picker holds it: Europe/Berlin wall-clock
 * time ("2026-12-14 18:00:00", Mantine's format), sent as an ISO instant. Apart from
 * motions.rules.ts: the conversion comes from the events' contract, which loads zod.
 */

/** An Umlaufverfahren runs this long unless the Vorsitz chooses another deadline. */
export const DEFAULT_UMLAUF_DAYS = 7;
/** … and ends at this hour of the day (Europe/Berlin): after work, whenever it was started. */
export const DEFAULT_DEADLINE_HOUR = 18;
const DAY_MS = 86_400_000;

/**
 * A week from today at 18:00 Berlin time, never in the past: started after midnight the deadline
 * still lands on the evening, not at the night hour the procedure happened to be opened.
 */
export function defaultDeadline(now: Date = new Date()): Date {
  const today = wallClockInBerlin(now);
  for (let days = DEFAULT_UMLAUF_DAYS; ; days += 1) {
    // Calendar days on the wall clock (noon UTC keeps the date clear of any offset).
    const day = new Date(Date.UTC(today.year, today.month - 1, today.day, 12) + days * DAY_MS);
    const deadline = fromBerlinLocal({
      year: day.getUTCFullYear(),
      month: day.getUTCMonth() + 1,
      day: day.getUTCDate(),
      hour: DEFAULT_DEADLINE_HOUR,
      minute: 0,
      second: 0,
    });
    if (deadline.getTime() > now.getTime()) return deadline;
  }
}

/** An instant as the picker shows it: "2026-12-14 18:00:00" in Europe/Berlin. */
export const pickerValueOf = (instant: Date | string): string =>
  `${toBerlinLocal(instant).replace('T', ' ')}:00`;

/** The picker's value ("2026-12-14 18:00:00", Berlin) as an ISO instant; null for anything else. */
export function deadlineFromPicker(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day || hour > 23 || minute > 59)
    return null;
  return fromBerlinLocal({ year, month, day, hour, minute, second }).toISOString();
}

export const DEADLINE_MESSAGES = {
  required: MOTION_MESSAGES.deadlineRequired,
  // The open body's message for a deadline that is no instant.
  invalid: 'Bitte eine gültige Frist angeben.',
  past: MOTION_MESSAGES.deadlineInPast,
} as const;

/** Why this deadline cannot be used, or null: missing, unreadable, not in the future. */
export function deadlineError(value: string, now: Date = new Date()): string | null {
  if (value.trim() === '') return DEADLINE_MESSAGES.required;
  const iso = deadlineFromPicker(value);
  if (iso === null) return DEADLINE_MESSAGES.invalid;
  return new Date(iso).getTime() <= now.getTime() ? DEADLINE_MESSAGES.past : null;
}
