import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../worker-thread.ts';
import type { ExtractFailure, ExtractLimits, ExtractRequest, ExtractResult } from './types.ts';

/*
 * The extraction worker threads (decision 127). One worker per memory limit is kept and given one
 * document at a time: starting a thread and loading the parsers costs about 100 ms, more than
 * reading a typical document. A worker that failed, ran out of time or memory, or has read
 * RECYCLE_AFTER documents is terminated and the next document gets a fresh one; an idle worker
 * ends after IDLE_MS. Idle workers never keep the process alive.
 */
const RECYCLE_AFTER = 200;
const IDLE_MS = 60_000;

const failed = (reason: ExtractFailure): ExtractResult => ({ state: 'failed', reason });

const REASONS: ReadonlySet<string> = new Set([
  'unsupported',
  'damaged',
  'encrypted',
  'too_large',
  'timeout',
  'memory',
]);

function asResult(message: unknown): ExtractResult {
  const m = message as { state?: unknown; text?: unknown; reason?: unknown } | null;
  if (m?.state === 'done' && typeof m.text === 'string') return { state: 'done', text: m.text };
  if (m?.state === 'failed' && typeof m.reason === 'string' && REASONS.has(m.reason)) {
    return failed(m.reason as ExtractFailure);
  }
  return failed('damaged');
}

class WorkerHost {
  private worker: Worker | undefined;
  private jobs = 0;
  private idle: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly limits: ExtractLimits) {}

  /** Runs the request when the documents before it are done. */
  run(request: ExtractRequest): Promise<ExtractResult> {
    const job = this.queue.then(() => this.runNow(request));
    this.queue = job.catch(() => undefined);
    return job;
  }

  private spawn(): Worker {
    const worker = startWorker(import.meta.url, 'extract.worker', {
      resourceLimits: {
        maxOldGenerationSizeMb: this.limits.maxMemoryMb,
        maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(this.limits.maxMemoryMb / 8))),
        stackSizeMb: 4,
      },
      // Parsers warn on every broken file; that noise is not the server's log.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    this.jobs = 0;
    return worker;
  }

  private discard(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
  }

  private runNow(request: ExtractRequest): Promise<ExtractResult> {
    clearTimeout(this.idle);
    const worker = (this.worker ??= this.spawn());
    return new Promise((resolve) => {
      let settled = false;
      const finish = (result: ExtractResult, reusable: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        this.jobs += 1;
        if (!reusable || this.jobs >= RECYCLE_AFTER) this.discard();
        else {
          this.idle = setTimeout(() => this.discard(), IDLE_MS);
          this.idle.unref();
        }
        resolve(result);
      };
      const onMessage = (message: unknown) => finish(asResult(message), true);
      const onError = (error: Error & { code?: string }) =>
        finish(failed(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'damaged'), false);
      // An exit without an answer: the parser called process.exit or the thread was ended.
      const onExit = () => finish(failed('damaged'), false);
      // The deadline holds the process open while a document is read; the idle worker does not.
      const timer = setTimeout(() => finish(failed('timeout'), false), request.limits.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      const transfer = 'slices' in request.input ? request.input.slices.map((slice) => slice.buffer) : [];
      worker.postMessage(request, transfer);
    });
  }
}

const hosts = new Map<number, WorkerHost>();

/** Reads one document in the worker for its memory limit. */
export function runInWorker(request: ExtractRequest): Promise<ExtractResult> {
  let host = hosts.get(request.limits.maxMemoryMb);
  if (!host) {
    host = new WorkerHost(request.limits);
    hosts.set(request.limits.maxMemoryMb, host);
  }
  return host.run(request);
}
