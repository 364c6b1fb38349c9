import { readFileSync, readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PasswordThreads } from '../src/password-threads.ts';

const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Nice value of each thread of this process (field 19 of its stat line). */
function niceByThread(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const id of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${id}/stat`, 'utf8');
      nice.set(Number(id), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nice;
}

/** The threads at nice 19 now. Other test files' threads may still start or end meanwhile. */
const lowest = () =>
  new Set([...niceByThread()].filter(([, value]) => value === 19).map(([thread]) => thread));

describe.runIf(process.platform === 'linux')('PasswordThreads (decision 139)', () => {
  it('hashes and verifies on a thread of the lowest priority, the event loop keeps its own', async () => {
    const before = lowest();
    const threads = new PasswordThreads();
    const hash = await threads.hash('richtiges Passwort', OPTIONS);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await threads.verify(hash, 'richtiges Passwort')).toBe(true);
    expect(await threads.verify(hash, 'falsches Passwort')).toBe(false);
    // One new thread at nice 19 (the same thread served all three jobs); the main thread unchanged.
    expect([...lowest()].filter((thread) => !before.has(thread))).toHaveLength(1);
    expect(niceByThread().get(process.pid)).toBe(0);
  });

  it('rejects a job that fails and keeps working', async () => {
    const threads = new PasswordThreads();
    await expect(threads.verify('kein argon2-Hash', 'x')).rejects.toThrow();
    const hash = await threads.hash('weiter', OPTIONS);
    expect(await threads.verify(hash, 'weiter')).toBe(true);
  });

  it('keeps the process open while it computes, not while it waits', async () => {
    // A script that hashes twice and does nothing else must get both results: the second job goes
    // to the thread that sat idle (and did not hold the process) after the first.
    const script = new URL('../src/password-threads.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const code = `import(${JSON.stringify(tsx)}).then(async (tsx) => {
      tsx.register();
      const { PasswordThreads } = await import(${JSON.stringify(script)});
      const threads = new PasswordThreads();
      const options = ${JSON.stringify(OPTIONS)};
      threads.hash('x', options).then(() => threads.hash('y', options)).then((hash) => require('node:worker_threads').parentPort.postMessage(hash));
    });`;
    const worker = new Worker(code, { eval: true });
    const answer = new Promise<unknown>((resolve) => worker.once('message', resolve));
    const exit = new Promise<number>((resolve) => worker.once('exit', resolve));
    expect(await Promise.race([answer, exit.then(() => 'beendet ohne Antwort')])).toMatch(/^\$argon2id\$/);
    // Afterwards the idle hashing thread does not keep it alive.
    expect(await exit).toBe(0);
  });
});
