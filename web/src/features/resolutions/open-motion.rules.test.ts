import { describe, expect, it } from 'vitest';
import {
  DEADLINE_MESSAGES,
  deadlineError,
  deadlineFromPicker,
  defaultDeadline,
  pickerValueOf,
} from './open-motion.rules';

describe('the deadline of an Umlaufverfahren', () => {
  it('defaults to a week from today at 18:00 Berlin time, in winter and in summer', () => {
    // 13:10 in Berlin (winter): the 14th at 18:00 CET.
    expect(defaultDeadline(new Date('2026-12-07T12:10:30.000Z')).toISOString()).toBe(
      '2026-12-14T17:00:00.000Z',
    );
    // Summer: 18:00 CEST.
    expect(defaultDeadline(new Date('2026-07-07T08:00:00.000Z')).toISOString()).toBe(
      '2026-07-14T16:00:00.000Z',
    );
    expect(pickerValueOf(defaultDeadline(new Date('2026-07-07T08:00:00.000Z')))).toBe('2026-07-14 18:00:00');
  });

  it('lands on the evening when opened after midnight or late at night, by the Berlin calendar', () => {
    // 00:55 in Berlin on the 8th (23:55 UTC on the 7th): the 15th at 18:00, not at 00:55 or 01:00.
    const afterMidnight = new Date('2026-12-07T23:55:00.000Z');
    expect(pickerValueOf(defaultDeadline(afterMidnight))).toBe('2026-12-15 18:00:00');
    // 23:30 in Berlin: still a week from that day.
    expect(pickerValueOf(defaultDeadline(new Date('2026-12-07T22:30:00.000Z')))).toBe('2026-12-14 18:00:00');
    // Across the change to summer time (29 March 2026) and back (25 October 2026).
    expect(pickerValueOf(defaultDeadline(new Date('2026-03-24T02:30:00.000Z')))).toBe('2026-03-31 18:00:00');
    expect(pickerValueOf(defaultDeadline(new Date('2026-10-20T21:59:00.000Z')))).toBe('2026-10-27 18:00:00');
  });

  it('is always in the future and accepted by the form', () => {
    for (const iso of ['2026-12-07T00:00:00.000Z', '2026-12-07T16:59:59.000Z', '2026-12-07T23:59:59.000Z']) {
      const now = new Date(iso);
      const deadline = defaultDeadline(now);
      expect(deadline.getTime()).toBeGreaterThan(now.getTime() + 6 * 86_400_000);
      expect(deadlineError(pickerValueOf(deadline), now)).toBeNull();
    }
  });

  it('shows and reads Berlin wall-clock time, in winter and in summer', () => {
    expect(pickerValueOf('2026-12-14T17:00:00.000Z')).toBe('2026-12-14 18:00:00');
    expect(pickerValueOf('2026-07-14T16:00:00.000Z')).toBe('2026-07-14 18:00:00');
    expect(deadlineFromPicker('2026-12-14 18:00:00')).toBe('2026-12-14T17:00:00.000Z');
    expect(deadlineFromPicker('2026-07-14 18:00')).toBe('2026-07-14T16:00:00.000Z');
  });

  it('refuses what is no time, and a deadline that is not in the future', () => {
    const now = new Date('2026-12-07T12:00:00.000Z');
    expect(deadlineFromPicker('14.12.2026 18:00')).toBeNull();
    expect(deadlineFromPicker('2026-02-30 18:00')).toBeNull();
    expect(deadlineError('', now)).toBe(DEADLINE_MESSAGES.required);
    expect(deadlineError('2026-13-01 10:00', now)).toBe(DEADLINE_MESSAGES.invalid);
    expect(deadlineError('2026-12-07 12:00:00', now)).toBe(DEADLINE_MESSAGES.past);
    expect(deadlineError('2026-12-14 18:00:00', now)).toBeNull();
    expect(DEADLINE_MESSAGES.required).toBe('Für ein Umlaufverfahren bitte eine Frist angeben.');
  });
});
