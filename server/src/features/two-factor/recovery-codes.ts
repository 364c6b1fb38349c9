import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@gremienportal/contracts/two-factor';

/** No 0/O, 1/I/L: codes are read off paper and typed by hand. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** `XXXXX-XXXXX`: 10 characters of 31, about 49 bits each. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Case, blanks and dashes do not matter when a code is typed. */
export const normaliseRecoveryCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

/** Only this hash is stored. The codes are random, so a plain SHA-256 cannot be reversed. */
export const hashRecoveryCode = (code: string) =>
  createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
