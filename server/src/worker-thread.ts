import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker module `name` that lies next to the module at `base` (its `import.meta.url`):
 * `name.js` in the built server. Under vitest and tsx both are TypeScript, and Node 20 does not
 * pass loader hooks (--import) on to worker threads, so a tiny script registers tsx inside the
 * worker before it loads `name.ts` (decision 127).
 */
export function startWorker(base: string, name: string, options: WorkerOptions): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), options);
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL(`./${name}.ts`, base).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { ...options, eval: true });
}
