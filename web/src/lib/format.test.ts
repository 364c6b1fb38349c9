import { describe, expect, it } from 'vitest';
import { BYTES_PER_MB, formatDate, formatDateTime, formatSizeMb } from './format';

describe('format', () => {
  it('shows date and time de-DE in Berlin time, whatever the UTC timestamp', () => {
    expect(formatDateTime('2026-11-21T13:30:00Z')).toBe('21.11.2026, 14:30');
    // Summer time: UTC+2.
    expect(formatDateTime('2026-07-01T22:15:00Z')).toBe('02.07.2026, 00:15');
    expect(formatDate('2026-11-21T23:30:00Z')).toBe('22.11.2026');
  });

  it('returns an empty text for missing or unreadable dates', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDate('kein Datum')).toBe('');
  });

  it('shows sizes in MB with two decimals and a decimal comma', () => {
    expect(formatSizeMb(1.25)).toBe('1,25 MB');
    expect(formatSizeMb(1234.5)).toBe('1.234,50 MB');
    expect(formatSizeMb(1.25 * BYTES_PER_MB, { unit: 'bytes' })).toBe('1,25 MB');
    expect(formatSizeMb(0.01)).toBe('0,01 MB');
    expect(formatSizeMb(undefined)).toBe('');
  });

  it('shows sizes below 0,01 MB in KB or bytes, singular and plural right', () => {
    expect(formatSizeMb(628, { unit: 'bytes' })).toBe('628 Bytes');
    expect(formatSizeMb(1, { unit: 'bytes' })).toBe('1 Byte');
    expect(formatSizeMb(0)).toBe('0 Bytes');
    expect(formatSizeMb(8704, { unit: 'bytes' })).toBe('8,5 KB');
    expect(formatSizeMb(0.005)).toBe('5,1 KB');
    expect(formatSizeMb(undefined)).toBe('');
  });
});
