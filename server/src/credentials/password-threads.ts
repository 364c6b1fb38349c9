import type { Options } from '@node-rs/argon2';
import { HelperProcess } from '../processes/helper-process.ts';
import type { Timed } from './password-queue.ts';

export type PasswordJob =
  { op: 'hash'; password: string; options: Options } | { op: 'verify'; hash: string; password: string };

/** `ms`: how long argon2 itself took in the helper, without the helper's start. */
export type PasswordAnswer =
  { ok: true; value: string | boolean; ms: number } | { ok: false; message: string };

/** A helper that computed nothing for this long ends; the next burst starts one again. */
const IDLE_MS = 60_000;

/**
 * The helper processes that compute argon2 (decisions 139, 144). Each computes one hash at a time
 * at the lowest priority; PasswordQueue decides how many run at once, so a helper is started only
 * when all are busy and stays for the next job (starting one costs more than a hash). A helper
 * holds the process open only while it computes; one that fails is dropped and its job rejected.
 */
export class PasswordThreads {
  private readonly idle: { worker: HelperProcess; timer: NodeJS.Timeout }[] = [];

  hash(password: string, options: Options): Promise<Timed<string>> {
    return this.run({ op: 'hash', password, options }) as Promise<Timed<string>>;
  }

  verify(hash: string, password: string): Promise<Timed<boolean>> {
    return this.run({ op: 'verify', hash, password }) as Promise<Timed<boolean>>;
  }

  /** A new helper; should it ever end while idle, it leaves the idle list instead of taking a job. */
  private start(): HelperProcess {
    const worker = new HelperProcess(import.meta.url, 'password.worker');
    worker.once('exit', () => this.take(worker));
    return worker;
  }

  /** Removes `worker` from the idle list; whether it was there. */
  private take(worker: HelperProcess): boolean {
    const index = this.idle.findIndex((entry) => entry.worker === worker);
    if (index < 0) return false;
    clearTimeout(this.idle[index]!.timer);
    this.idle.splice(index, 1);
    return true;
  }

  private rest(worker: HelperProcess): void {
    worker.unref();
    const timer = setTimeout(() => {
      if (this.take(worker)) void worker.terminate();
    }, IDLE_MS);
    timer.unref();
    this.idle.push({ worker, timer });
  }

  private run(job: PasswordJob): Promise<Timed<string | boolean>> {
    const resting = this.idle.pop();
    clearTimeout(resting?.timer);
    const worker = resting?.worker ?? this.start();
    worker.ref();
    return new Promise((resolve, reject) => {
      const onAnswer = (answer: PasswordAnswer): void => {
        worker.off('exit', onEnd);
        this.rest(worker);
        if (answer.ok) resolve({ value: answer.value, ms: answer.ms });
        else reject(new Error(answer.message));
      };
      const onEnd = (): void => {
        worker.off('message', onAnswer);
        reject(new Error('Passwort-Hilfsprozess endete'));
      };
      worker.once('message', onAnswer);
      worker.once('exit', onEnd);
      worker.postMessage(job);
    });
  }
}
