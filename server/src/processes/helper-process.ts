import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';

/*
 * Helper processes for long computations: argon2, the Sitzungsmappe and text extraction
 * (decision 144). They run at the lowest priority, so that requests go first. They are processes,
 * not worker threads: a thread of the lowest priority shares the process's memory map with the
 * event loop, and when it was preempted while holding the map's lock, the event loop waited for
 * it behind every other busy thread of the machine (decision 144 gives the figure).
 */

export interface HelperOptions {
  /** V8 heap of the helper (old generation). */
  maxMemoryMb?: number;
  /** Stack of the helper's JavaScript. */
  stackSizeMb?: number;
  /** Each of V8's two semi-spaces (the young generation); smaller keeps the resident set down. */
  semiSpaceMb?: number;
}

const STDERR_KEPT = 4096;

/**
 * On Linux a helper is started through util-linux's `setpriv --pdeathsig KILL`: the kernel ends it
 * when the portal ends, however (killed, crashed), even while its parser is stuck in a loop and
 * never notices its channel closing. Elsewhere the channel's end and the exit hook below do it.
 */
const SETPRIV = '/usr/bin/setpriv';
const deathSignal = process.platform === 'linux' && existsSync(SETPRIV);

/**
 * What a helper gets of the portal's environment. Database, mail and storage credentials stay out
 * of a process that parses hostile files: the search path, the temporary folder (tsx's cache),
 * time zone, locale and Node's own settings are all it needs.
 */
const PASSED_ENV = /^(PATH|TMPDIR|TZ|LANG|LC_[A-Z]+|NODE_[A-Z0-9_]+)$/;
const helperEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => PASSED_ENV.test(name)));

/** Helpers alive now; this process's end takes them along (a forced exit at shutdown, say). */
const alive = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL');
});

/** Ends a helper without an answer; a host that hears it blames the job, as for any end. */
export interface HelperEnd {
  /** The helper's heap ran out (the host answers "memory" rather than "damaged"). */
  outOfMemory: boolean;
}

/**
 * One helper process, speaking in messages (v8 serialization: Uint8Array and other structured
 * values pass as they are, copied). Emits `message` and, once, `exit` with a HelperEnd. Like a
 * worker thread it holds this process open unless `unref()`ed (bytes still being written to it
 * hold it open regardless), and it ends when this process ends.
 */
export class HelperProcess extends EventEmitter {
  private readonly child: ChildProcess;
  private done = false;

  /** Starts the helper module `name` next to the module at `base` (its `import.meta.url`). */
  constructor(base: string, name: string, options: HelperOptions = {}) {
    super();
    const limits = [
      ...(options.maxMemoryMb ? [`--max-old-space-size=${options.maxMemoryMb}`] : []),
      // V8 counts in KiB and needs room below the thread's real stack (8 MiB on Linux).
      ...(options.stackSizeMb ? [`--stack-size=${Math.min(options.stackSizeMb, 7) * 1000}`] : []),
      ...(options.semiSpaceMb ? [`--max-semi-space-size=${options.semiSpaceMb}`] : []),
    ];
    const typescript = base.endsWith('.ts');
    // Under vitest and tsx the helper is TypeScript too, loaded through tsx's hooks, and finds the
    // workspace packages by their sources, as the parent does (decision 121).
    const loader = typescript ? ['--conditions=source', '--import', import.meta.resolve('tsx')] : [];
    const entry = new URL(`./${name}.${typescript ? 'ts' : 'js'}`, base);
    const node = [...loader, ...limits];
    this.child = fork(entry, [], {
      ...(deathSignal
        ? { execPath: SETPRIV, execArgv: ['--pdeathsig', 'KILL', process.execPath, ...node] }
        : { execArgv: node }),
      serialization: 'advanced',
      env: helperEnv(),
      // Parsers warn on every broken file; that noise is not the server's log. Only the end of
      // stderr is kept, to tell a heap that ran out from other ends.
      // stdin carries large bytes (sendBytes), the channel the messages.
      stdio: ['pipe', 'ignore', 'pipe', 'ipc'],
    });
    // Input that broke (the helper ended while bytes were on their way, or its pipe failed) ends
    // the helper: its `exit` tells the listeners, and it never waits for bytes that cannot come.
    this.child.stdin!.on('error', () => this.child.kill('SIGKILL'));
    let stderr = '';
    // The pipe alone never holds this process open; the channel does while the helper computes.
    (this.child.stderr as unknown as { unref(): void }).unref();
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (text: string) => {
      stderr = (stderr + text).slice(-STDERR_KEPT);
    });
    alive.add(this.child);
    this.child.on('message', (message) => this.emit('message', message));
    // A failed start (no such file, no process slots) ends like any other end.
    this.child.on('error', () => this.end(false));
    // `close`, not `exit`: by then stderr has been read to its end.
    this.child.on('close', () => this.end(/heap out of memory|heap limit/i.test(stderr)));
  }

  /** Sends one message; a helper that has ended takes none (its `exit` has been or will be emitted). */
  postMessage(message: unknown): void {
    if (this.done || !this.child.connected) return;
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
    if (this.done) return Promise.resolve();
    const exited = new Promise<void>((resolve) => this.once('exit', () => resolve()));
    this.child.kill('SIGKILL');
    return exited;
  }

  /**
   * Writes `bytes` to the helper's stdin, where `readBytes` of helper-side.ts takes them; resolves
   * when they are written or the helper has ended. No serialization on this thread: a large
   * message through the channel held the event loop while it was serialized; the pipe is written
   * from the caller's bytes in small writes as the helper reads them, which costs only the
   * kernel's copy (decision 169 gives the figures). The bytes are never changed.
   */
  sendBytes(bytes: Uint8Array): Promise<void> {
    const stdin = this.child.stdin!;
    if (this.done || bytes.byteLength === 0) return Promise.resolve();
    if (!stdin.writable) {
      this.child.kill('SIGKILL');
      return Promise.resolve();
    }
    return new Promise((resolve) => stdin.write(bytes, () => resolve()));
  }

  private end(outOfMemory: boolean): void {
    if (this.done) return;
    this.done = true;
    alive.delete(this.child);
    const end: HelperEnd = { outOfMemory };
    this.emit('exit', end);
  }
}
