import { availableParallelism } from 'node:os';
import { hash, verify, type Options } from '@node-rs/argon2';

/** OWASP's argon2id parameters (m = 19 MiB, t = 2, p = 1). */
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const ARGON2_OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * At most one argon2 computation per core but one: a burst of sign-ins queues here instead of
 * taking every core from the requests of everyone else (decision 113).
 */
const MAX_CONCURRENT = Math.max(1, availableParallelism() - 1);
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, so `running` stays counted.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export const hashPassword = (password: string): Promise<string> =>
  limited(() => hash(password, ARGON2_OPTIONS));

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await limited(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

/** Verified against when the e-mail is unknown, so the answer takes as long either way. */
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = (): Promise<string> =>
  (dummyHash ??= hashPassword('dummy-password-for-timing'));
