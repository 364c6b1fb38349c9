import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';

/*
 * Helper processes for long computations: argon2, the Sitzungsmappe and text extraction
 * (decision 144). They run at the lowest priority, so that requests go first. They are processes,
 * not worker threads: a thread of the lowest priority shares the process's memory map with the
 * event loop, and when it was preempted while holding the map's lock, the event loop waited for
 * it behind every other busy thread of the machine (328 ms measured).
 */

export interface HelperOptions {
  /** V8 heap of the helper (old generation). */
  maxMemoryMb?: number;
  /** Stack of the helper's JavaScript. */
  stackSizeMb?: number;
}

/** The helper ran out of heap; it has ended. */
export class HelperOutOfMemoryError extends Error {
  readonly code = 'ERR_HELPER_OUT_OF_MEMORY';
}

const STDERR_KEPT = 4096;

/**
 * One helper process, speaking in messages (v8 serialization: Uint8Array and other structured
 * values pass as they are, copied). Emits `message`, `error` (before `exit`, when it ran out of
 * heap) and `exit`. Like a worker thread it holds this process open unless `unref()`ed, and it ends
 * when this process ends (its channel closes).
 */
export class HelperProcess extends EventEmitter {
  private readonly child: ChildProcess;
  private ended = false;

  /** Starts the helper module `name` next to the module at `base` (its `import.meta.url`). */
  constructor(base: string, name: string, options: HelperOptions = {}) {
    super();
    const limits = [
      ...(options.maxMemoryMb ? [`--max-old-space-size=${options.maxMemoryMb}`] : []),
      // V8 counts in KiB and needs room below the thread's real stack (8 MiB on Linux).
      ...(options.stackSizeMb ? [`--stack-size=${Math.min(options.stackSizeMb, 7) * 1000}`] : []),
    ];
    const typescript = base.endsWith('.ts');
    // Under vitest and tsx the helper is TypeScript too, loaded through tsx's hooks.
    const loader = typescript ? ['--import', import.meta.resolve('tsx')] : [];
    const entry = new URL(`./${name}.${typescript ? 'ts' : 'js'}`, base);
    this.child = fork(entry, [], {
      execArgv: [...loader, ...limits],
      serialization: 'advanced',
      // Parsers warn on every broken file; that noise is not the server's log. Only the end of
      // stderr is kept, to tell a heap that ran out from other ends.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    // The pipe alone never holds this process open; the channel does while the helper computes.
    (this.child.stderr as unknown as { unref(): void }).unref();
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_KEPT);
    });
    this.child.on('message', (message) => this.emit('message', message));
    // A failed start (no such file, no process slots) ends like an exit.
    this.child.on('error', () => this.end(1));
    this.child.on('exit', (code, signal) => {
      if (/heap out of memory|heap limit/i.test(stderr)) {
        this.emit('error', new HelperOutOfMemoryError('Hilfsprozess: Speichergrenze erreicht'));
      }
      this.end(code ?? (signal ? 1 : 0));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Sends one message; a helper that has ended takes none (its `exit` has been or will be emitted). */
  postMessage(message: unknown): void {
    if (this.ended || !this.child.connected) return;
    this.child.send(message as never, (error) => {
      // The helper ended while the message was on its way: `exit` tells the listeners.
      if (error) this.child.kill('SIGKILL');
    });
  }

  /** Holds this process open (while the helper computes). */
  ref(): void {
    this.child.ref();
    this.child.channel?.ref();
  }

  /** Lets this process end although the helper lives (an idle helper). */
  unref(): this {
    this.child.unref();
    this.child.channel?.unref();
    return this;
  }

  /** Ends the helper at once; resolves when it has ended. */
  terminate(): Promise<void> {
    if (this.ended) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    return exited;
  }

  private end(code: number): void {
    if (this.ended) return;
    this.ended = true;
    this.emit('exit', code);
  }
}
