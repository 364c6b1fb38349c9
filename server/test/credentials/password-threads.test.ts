import { readFileSync, readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PasswordThreads } from '../../src/credentials/password-threads.ts';
import { helperProcesses } from '../support/processes.ts';

const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Nice value of each thread of process `pid` (field 19 of its stat line). */
function niceByThread(pid: number | 'self'): Map<number, number> {
  const nice = new Map<number, number>();
  for (const id of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${id}/stat`, 'utf8');
      nice.set(Number(id), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nice;
}

describe.runIf(process.platform === 'linux')('PasswordThreads (decisions 139, 144)', () => {
  it('hashes and verifies in a helper process whose threads all have the lowest priority', async () => {
    const before = new Set(helperProcesses());
    // What this process runs at (0 usually; more when the suite runs under `nice`).
    const ownNice = niceByThread('self').get(process.pid);
    const threads = new PasswordThreads();
    const began = performance.now();
    const { value: hash, ms } = await threads.hash('richtiges Passwort', OPTIONS);
    const took = performance.now() - began;
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // The duration it reports is argon2's alone, without the helper's start (hundreds of
    // milliseconds under tsx), which would tell the password queue nothing about the next hash.
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThan(took / 2);
    expect((await threads.verify(hash, 'richtiges Passwort')).value).toBe(true);
    expect((await threads.verify(hash, 'falsches Passwort')).value).toBe(false);
    // One new process (the same helper served all three jobs), every thread of it at nice 19; this
    // process's own threads share no memory with it and keep their priority.
    const started = helperProcesses().filter((pid) => !before.has(pid));
    expect(started).toHaveLength(1);
    const helperThreads = [...niceByThread(started[0]!).values()];
    expect(helperThreads.length).toBeGreaterThan(1);
    expect(new Set(helperThreads)).toEqual(new Set([19]));
    expect(niceByThread('self').get(process.pid)).toBe(ownNice);
  });

  it("keeps the portal's credentials out of the helper's environment", async () => {
    const before = new Set(helperProcesses());
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = 'postgres://portal:geheim@127.0.0.1/portal';
    try {
      const threads = new PasswordThreads();
      await threads.hash('Umgebung', OPTIONS);
      const [helper] = helperProcesses().filter((pid) => !before.has(pid));
      const environment = readFileSync(`/proc/${helper}/environ`, 'utf8').split('\0');
      expect(environment.some((entry) => entry.startsWith('PATH='))).toBe(true);
      expect(environment.some((entry) => entry.includes('geheim'))).toBe(false);
      expect(environment.filter((entry) => /^(DATABASE|SMTP|S3|REDIS)_/.test(entry))).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });

  it('rejects a job that fails and keeps working', async () => {
    const threads = new PasswordThreads();
    await expect(threads.verify('kein argon2-Hash', 'x')).rejects.toThrow();
    const { value: hash } = await threads.hash('weiter', OPTIONS);
    expect((await threads.verify(hash, 'weiter')).value).toBe(true);
  });

  it('keeps the process open while it computes, not while it waits', async () => {
    // A script that hashes twice and does nothing else must get both results: the second job goes
    // to the helper that sat idle (and did not hold the process) after the first.
    const script = new URL('../../src/credentials/password-threads.ts', import.meta.url).href;
    const tsx = import.meta.resolve('tsx/esm/api');
    const code = `import(${JSON.stringify(tsx)}).then(async (tsx) => {
      tsx.register();
      const { PasswordThreads } = await import(${JSON.stringify(script)});
      const threads = new PasswordThreads();
      const options = ${JSON.stringify(OPTIONS)};
      threads.hash('x', options).then(() => threads.hash('y', options)).then(({ value: hash }) => require('node:worker_threads').parentPort.postMessage(hash));
    });`;
    const worker = new Worker(code, { eval: true });
    const answer = new Promise<unknown>((resolve) => worker.once('message', resolve));
    const exit = new Promise<number>((resolve) => worker.once('exit', resolve));
    expect(await Promise.race([answer, exit.then(() => 'beendet ohne Antwort')])).toMatch(/^\$argon2id\$/);
    // Afterwards the idle hashing helper does not keep it alive.
    expect(await exit).toBe(0);
  });
});
