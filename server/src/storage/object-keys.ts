import { randomBytes } from 'node:crypto';

/** Random object and download keys: 128 bits, URL-safe. */
export const newKey = (): string => randomBytes(16).toString('base64url');
