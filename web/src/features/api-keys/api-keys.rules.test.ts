import { describe, expect, it } from 'vitest';
import { authorizationHeader, expiryFor, isExpired, keyCount } from './api-keys.rules';

const NOW = Date.parse('2026-11-27T12:00:00.000Z');

describe('api-keys rules', () => {
  it('counts keys in German', () => {
    expect(keyCount(1)).toBe('1 API-Schlüssel');
    expect(keyCount(3)).toBe('3 API-Schlüssel');
  });

  it('calls a key expired from its date on', () => {
    expect(isExpired({ expires_at: '2026-11-27T11:59:59.000Z' }, NOW)).toBe(true);
    expect(isExpired({ expires_at: '2026-11-27T12:00:00.000Z' }, NOW)).toBe(true);
    expect(isExpired({ expires_at: '2026-11-27T12:00:01.000Z' }, NOW)).toBe(false);
  });

  it('says when a key made now would expire, for a usable number of days only', () => {
    expect(expiryFor(365, NOW)?.toISOString()).toBe('2027-11-27T12:00:00.000Z');
    expect(expiryFor('30', NOW)?.toISOString()).toBe('2026-12-27T12:00:00.000Z');
    for (const value of ['', 0, -3, 1.5, 'abc', undefined]) expect(expiryFor(value, NOW)).toBeNull();
  });

  it('writes the header another system sends', () => {
    expect(authorizationHeader('gpk_abc')).toBe('Authorization: Bearer gpk_abc');
  });
});
