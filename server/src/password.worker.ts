/* Worker thread for password hashes (decision 139): argon2 one at a time, at the lowest priority. */
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';
import { lowerThreadPriority } from './thread-priority.ts';
import type { PasswordAnswer, PasswordJob } from './password-threads.ts';

lowerThreadPriority();

parentPort!.on('message', (job: PasswordJob) => {
  let answer: PasswordAnswer;
  try {
    answer = {
      ok: true,
      value: job.op === 'hash' ? hashSync(job.password, job.options) : verifySync(job.hash, job.password),
    };
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(answer);
});
