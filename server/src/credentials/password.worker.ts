/* Helper process for password hashes (decision 139, 144): argon2 one at a time, at the lowest priority. */
import { hashSync, verifySync } from '@node-rs/argon2';
import { onMessage, post } from '../processes/helper-side.ts';
import type { PasswordAnswer, PasswordJob } from './password-threads.ts';

onMessage((job: PasswordJob) => {
  let answer: PasswordAnswer;
  try {
    const started = performance.now();
    const value =
      job.op === 'hash' ? hashSync(job.password, job.options) : verifySync(job.hash, job.password);
    answer = { ok: true, value, ms: performance.now() - started };
  } catch (error) {
    answer = { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  post(answer);
});
