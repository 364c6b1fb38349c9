/*
 * Text of a stored document for the full-text search (issue 19). The parsers run in a worker
 * thread with a heap limit and a deadline, so a hostile or broken file costs one failed result,
 * never the server's memory or event loop (decision 127).
 */
import { stat } from 'node:fs/promises';
import { setImmediate } from 'node:timers/promises';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { bytesToRead } from './plain-text.ts';

export type ExtractResult =
  | { state: 'done'; text: string }
  | {
      state: 'failed';
      reason: 'unsupported' | 'damaged' | 'encrypted' | 'too_large' | 'timeout' | 'memory';
    };
export type ExtractFailure = Extract<ExtractResult, { state: 'failed' }>['reason'];

export interface ExtractLimits {
  /** Wall-clock time of one extraction, worker start included. */
  timeoutMs: number;
  /** Heap of the worker (V8 old generation); buffers outside the heap are bounded by the input limits. */
  maxMemoryMb: number;
  /** UTF-8 bytes of the returned text; longer text is cut. */
  maxTextBytes: number;
  /** Bytes of the stored file; a larger file is not read at all. */
  maxInputBytes: number;
}

export const DEFAULT_LIMITS: ExtractLimits = {
  timeoutMs: 30_000,
  maxMemoryMb: 256,
  maxTextBytes: 10 * 1024 * 1024,
  maxInputBytes: 200 * 1024 * 1024,
};

/** What the worker receives; `format` is already checked and lower case. */
export interface ExtractRequest {
  /** A path the worker reads itself, or copies of the caller's bytes (see `sliceForWorker`). */
  input: { path: string } | { slices: Uint8Array<ArrayBuffer>[]; complete: boolean };
  format: string;
  limits: ExtractLimits;
}

const EXTRACTABLE = new Set(['pdf', 'docx', 'pptx', 'xlsx', 'odt', 'odp', 'ods', 'rtf', 'txt', 'csv']);

/** Whether a stored format (the portal's lower-case extension) can be searched by its content. */
export function isExtractable(format: string): boolean {
  return EXTRACTABLE.has(format.toLowerCase());
}

/**
 * Extracts in a worker thread (node:worker_threads with resourceLimits) that is terminated on
 * timeout; never throws, never blocks the event loop.
 */
export async function extractText(
  input: { path: string } | { bytes: Uint8Array },
  format: string,
  limits: Partial<ExtractLimits> = {},
): Promise<ExtractResult> {
  try {
    const effective: ExtractLimits = { ...DEFAULT_LIMITS, ...limits };
    const lowerFormat = format.toLowerCase();
    if (!EXTRACTABLE.has(lowerFormat)) return failed('unsupported');
    if ('path' in input) {
      if ((await stat(input.path)).size > effective.maxInputBytes) return failed('too_large');
      return await runWorker({ input: { path: input.path }, format: lowerFormat, limits: effective });
    }
    if (input.bytes.byteLength > effective.maxInputBytes) return failed('too_large');
    const wanted = bytesToRead(lowerFormat, input.bytes.byteLength, effective.maxTextBytes);
    const slices = await sliceForWorker(input.bytes.subarray(0, wanted));
    const complete = wanted === input.bytes.byteLength;
    return await runWorker({ input: { slices, complete }, format: lowerFormat, limits: effective });
  } catch {
    // A file that cannot be read (gone, a folder, no permission) has no text to give.
    return failed('damaged');
  }
}

function failed(reason: ExtractFailure): ExtractResult {
  return { state: 'failed', reason };
}

const SLICE_BYTES = 8 * 1024 * 1024;

/**
 * The worker needs its own copy of the bytes. Cloning 200 MiB at once would hold this thread for
 * about 100 ms; copied 8 MiB at a time with a turn of the event loop in between and then
 * transferred (not cloned again), no single step takes more than a few milliseconds.
 */
async function sliceForWorker(bytes: Uint8Array): Promise<Uint8Array<ArrayBuffer>[]> {
  const slices: Uint8Array<ArrayBuffer>[] = [];
  for (let offset = 0; offset < bytes.byteLength; offset += SLICE_BYTES) {
    if (offset > 0) await setImmediate();
    // A copy in a fresh ArrayBuffer (Buffer#slice would be a view of the caller's memory).
    slices.push(new Uint8Array(bytes.subarray(offset, offset + SLICE_BYTES)));
  }
  return slices;
}

// The built server runs the compiled worker next to this file. Under vitest and tsx both are
// TypeScript, and Node 20 does not pass loader hooks (--import) on to worker threads, so a tiny
// script registers tsx inside the worker before it loads the worker module.
const fromSource = import.meta.url.endsWith('.ts');

function startWorker(options: WorkerOptions): Worker {
  if (!fromSource) return new Worker(new URL('./extract.worker.js', import.meta.url), options);
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./extract.worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { ...options, eval: true });
}

function runWorker(request: ExtractRequest): Promise<ExtractResult> {
  return new Promise((resolve) => {
    let settled = false;
    const worker = startWorker({
      workerData: request,
      transferList: 'slices' in request.input ? request.input.slices.map((slice) => slice.buffer) : [],
      resourceLimits: {
        maxOldGenerationSizeMb: request.limits.maxMemoryMb,
        maxYoungGenerationSizeMb: Math.max(4, Math.min(32, Math.floor(request.limits.maxMemoryMb / 8))),
        stackSizeMb: 4,
      },
      // Parsers warn on every broken file; that noise is not the server's log.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    const finish = (result: ExtractResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => finish(failed('timeout')), request.limits.timeoutMs);
    worker.on('message', (message: unknown) => finish(asResult(message)));
    worker.on('error', (error: Error & { code?: string }) =>
      finish(failed(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'damaged')),
    );
    // Running out of heap arrives above as an error; an exit without any answer means the parser
    // left a promise unsettled (the worker ends with code 13) or called process.exit.
    worker.on('exit', () => finish(failed('damaged')));
  });
}

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
