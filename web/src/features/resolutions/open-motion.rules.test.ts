import { describe, expect, it } from 'vitest';
import {
  DEADLINE_MESSAGES,
  deadlineError,
  deadlineFromPicker,
  defaultDeadline,
  pickerValueOf,
} from './open-motion.rules';

describe('the deadline of an Umlaufverfahren', () => {
  it('defaults to a week from now, on the next full hour', () => {
    expect(defaultDeadline(new Date('2026-12-07T12:10:30.000Z')).toISOString()).toBe(
      '2026-12-14T13:00:00.000Z',
    );
    expect(defaultDeadline(new Date('2026-12-07T12:00:00.000Z')).toISOString()).toBe(
      '2026-12-14T12:00:00.000Z',
    );
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
