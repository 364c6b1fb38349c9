import { HelperProcess, type HelperEnd } from '../../processes/helper-process.ts';
import type { ExtractFailure, ExtractLimits, ExtractRequest, ExtractResult } from './types.ts';

/*
 * The extraction helper processes (decisions 127, 144). One helper per memory limit is kept and
 * given one document at a time: starting one and loading the parsers costs more than reading a
 * typical document. A helper that failed, ran out of time or memory, or has read RECYCLE_AFTER
 * documents is ended and the next document gets a fresh one; an idle helper ends after IDLE_MS.
 * Idle helpers never keep the process alive.
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
  private worker: HelperProcess | undefined;
  private jobs = 0;
  private idle: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly limits: ExtractLimits) {}

  /** Runs the request when the documents before it are done. */
  run(request: ExtractRequest, bytes?: Uint8Array): Promise<ExtractResult> {
    const job = this.queue.then(() => this.runNow(request, bytes));
    this.queue = job.catch(() => undefined);
    return job;
  }

  private spawn(): HelperProcess {
    const worker = new HelperProcess(import.meta.url, 'extract.worker', {
      maxMemoryMb: this.limits.maxMemoryMb,
      stackSizeMb: 4,
    }).unref();
    // A helper that ends while idle (killed from outside) is not handed the next document.
    worker.once('exit', () => {
      if (this.worker === worker) this.worker = undefined;
    });
    this.jobs = 0;
    return worker;
  }

  private discard(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
  }

  private runNow(request: ExtractRequest, bytes?: Uint8Array): Promise<ExtractResult> {
    clearTimeout(this.idle);
    const worker = (this.worker ??= this.spawn());
    return new Promise((resolve) => {
      let settled = false;
      let written = !bytes;
      const finish = (result: ExtractResult, reusable: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        this.jobs += 1;
        // A helper that answered before it took all the bytes would read the rest as the next document.
        if (!reusable || !written || this.jobs >= RECYCLE_AFTER) this.discard();
        else {
          this.idle = setTimeout(() => this.discard(), IDLE_MS);
          this.idle.unref();
        }
        resolve(result);
      };
      const onMessage = (message: unknown) => finish(asResult(message), true);
      // An end without an answer: the heap ran out, the parser called process.exit, or the helper
      // was ended.
      const onExit = (end: HelperEnd) => finish(failed(end.outOfMemory ? 'memory' : 'damaged'), false);
      // The deadline holds the process open while a document is read; the idle worker does not.
      const timer = setTimeout(() => finish(failed('timeout'), false), request.limits.timeoutMs);
      worker.on('message', onMessage);
      worker.on('exit', onExit);
      // The request, then the document's bytes through the helper's stdin.
      worker.postMessage(request);
      if (bytes) void worker.sendBytes(bytes).then(() => (written = true));
    });
  }
}

const hosts = new Map<number, WorkerHost>();

/** Reads one document (`bytes`, or the file at the request's path) in the helper for its memory limit. */
export function runInWorker(request: ExtractRequest, bytes?: Uint8Array): Promise<ExtractResult> {
  let host = hosts.get(request.limits.maxMemoryMb);
  if (!host) {
    host = new WorkerHost(request.limits);
    hosts.set(request.limits.maxMemoryMb, host);
  }
  return host.run(request, bytes);
}
