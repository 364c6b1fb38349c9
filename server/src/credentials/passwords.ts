import { availableParallelism } from 'node:os';
import type { Options } from '@node-rs/argon2';
import { PasswordQueue } from './password-queue.ts';
import { PasswordThreads } from './password-threads.ts';

/** OWASP's argon2id parameters (m = 19 MiB, t = 2, p = 1). */
// `algorithm: 2` is Algorithm.Argon2id (a const enum, which isolated modules cannot import).
const ARGON2_OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * At most one argon2 computation per core but one: a burst of sign-ins queues here instead of
 * taking every core from the requests of everyone else (decision 113). Sign-ins wait at most
 * about two seconds and after every reset, invitation, password change and new user (decision
 * 117); the first estimate of a computation's time is on the safe side (decision 113).
 */
export const passwordQueue = new PasswordQueue({
  concurrency: Math.max(1, availableParallelism() - 1),
  maxSignInWaitMs: 2_000,
  initialEstimateMs: 50,
});

/** argon2 runs in helper processes of the lowest priority, so that it never delays a request (decisions 139, 144). */
const threads = new PasswordThreads();

/** Hashes a new password; never refused (see PasswordQueue). */
export const hashPassword = (password: string): Promise<string> =>
  passwordQueue.run('account', () => threads.hash(password, ARGON2_OPTIONS));

/**
 * Checks a sign-in's password. Throws HashingBusyError instead of queueing when the checks
 * ahead would take longer than the queue allows.
 */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return passwordQueue.run('sign-in', async () => {
    try {
      return await threads.verify(passwordHash, password);
    } catch {
      // A helper that failed tells nothing about how long a check takes.
      return { value: false, ms: passwordQueue.averageMs };
    }
  });
}

/** Verified against when the e-mail is unknown, so the answer takes as long either way. */
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = (): Promise<string> =>
  (dummyHash ??= hashPassword('dummy-password-for-timing'));
