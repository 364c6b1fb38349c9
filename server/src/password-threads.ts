import type { Options } from '@node-rs/argon2';
import { HelperProcess } from './helper-process.ts';

export type PasswordJob =
  { op: 'hash'; password: string; options: Options } | { op: 'verify'; hash: string; password: string };

export type PasswordAnswer = { ok: true; value: string | boolean } | { ok: false; message: string };

/**
 * The helper processes that compute argon2 (decisions 139, 144). Each computes one hash at a time
 * at the lowest priority; PasswordQueue decides how many run at once, so a helper is started only
 * when all are busy and stays for the next job (starting one costs more than a hash). A helper
 * holds the process open only while it computes; one that fails is dropped and its job rejected.
 */
export class PasswordThreads {
  private readonly idle: HelperProcess[] = [];

  hash(password: string, options: Options): Promise<string> {
    return this.run({ op: 'hash', password, options }) as Promise<string>;
  }

  verify(hash: string, password: string): Promise<boolean> {
    return this.run({ op: 'verify', hash, password }) as Promise<boolean>;
  }

  /** A new helper; should it ever end while idle, it leaves the idle list instead of taking a job. */
  private start(): HelperProcess {
    const worker = new HelperProcess(import.meta.url, 'password.worker');
    worker.once('exit', () => {
      const index = this.idle.indexOf(worker);
      if (index >= 0) this.idle.splice(index, 1);
    });
    return worker;
  }

  private run(job: PasswordJob): Promise<string | boolean> {
    const worker = this.idle.pop() ?? this.start();
    worker.ref();
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        worker.off('message', onAnswer);
        worker.off('error', onFailure);
        worker.off('exit', onFailure);
      };
      const onAnswer = (answer: PasswordAnswer): void => {
        settle();
        worker.unref();
        this.idle.push(worker);
        if (answer.ok) resolve(answer.value);
        else reject(new Error(answer.message));
      };
      const onFailure = (error?: unknown): void => {
        settle();
        void worker.terminate();
        reject(error instanceof Error ? error : new Error('Passwort-Hilfsprozess endete'));
      };
      worker.on('message', onAnswer);
      worker.on('error', onFailure);
      worker.on('exit', onFailure);
      worker.postMessage(job);
    });
  }
}
