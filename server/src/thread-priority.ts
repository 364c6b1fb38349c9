import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** The lowest priority a thread can take. */
const LOWEST = 19;

/**
 * Puts the calling worker thread behind every thread of normal priority, so that its long
 * computation (argon2, a Sitzungsmappe, text extraction) never keeps the event loop from the CPU:
 * otherwise a request thread woken on a core the worker holds waits milliseconds for its turn
 * (decision 139). Linux keeps a nice value per thread, and `/proc/thread-self` names the calling
 * one; elsewhere nothing changes. Never called on the main thread. Returns whether it lowered.
 */
export function lowerThreadPriority(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(threadId, LOWEST);
    return true;
  } catch {
    return false;
  }
}
