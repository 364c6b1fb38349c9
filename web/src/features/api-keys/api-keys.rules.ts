import type { ApiKey } from '@gremienportal/contracts/api-keys';
import { plural } from '../../lib/plural';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A key past its date is refused by the server; it stays in the list until it is revoked. */
export const isExpired = (key: Pick<ApiKey, 'expires_at'>, now: number = Date.now()): boolean =>
  Date.parse(key.expires_at) <= now;

/** When a key made now with `validDays` days would expire; null for an unusable number. */
export function expiryFor(validDays: unknown, now: number = Date.now()): Date | null {
  const days = typeof validDays === 'string' && validDays.trim() !== '' ? Number(validDays) : validDays;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1) return null;
  return new Date(now + days * DAY_MS);
}

/** "1 API-Schlüssel", "3 API-Schlüssel". */
export const keyCount = (n: number): string => plural(n, 'API-Schlüssel', 'API-Schlüssel');

/** How another system sends the key. */
export const authorizationHeader = (token: string): string => `Authorization: Bearer ${token}`;
