import { readdirSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/*
 * The helper process's side (decision 144): its messages, its priority, and its end with the
 * process that started it.
 */

/** Sends one message to the process that started this helper. */
export function post(message: unknown): void {
  process.send?.(message);
}

/** Calls `handle` with each message from the process that started this helper. */
export function onMessage<T>(handle: (message: T) => void): void {
  process.on('message', (message) => handle(message as T));
}

let reading: Promise<unknown> = Promise.resolve();
/** What may end a wait for bytes: more of them, or stdin's end. */
const STDIN_EVENTS = ['readable', 'end', 'close', 'error'];

/**
 * The next `length` bytes the host wrote with HelperProcess.sendBytes, in the order they were
 * written (reads queue behind each other). Rejects when stdin ends before.
 */
export function readBytes(length: number): Promise<Buffer> {
  const bytes = reading.then(() => readNow(length));
  reading = bytes.catch(() => undefined);
  return bytes;
}

/** Copies what stdin has buffered into one buffer of `length` bytes; what is beyond stays for the next read. */
function readNow(length: number): Promise<Buffer> {
  const stdin = process.stdin;
  const target = Buffer.allocUnsafe(length);
  let offset = 0;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      for (let chunk: Buffer | null; offset < length && (chunk = stdin.read() as Buffer | null);) {
        const take = Math.min(chunk.byteLength, length - offset);
        chunk.copy(target, offset, 0, take);
        offset += take;
        if (take < chunk.byteLength) stdin.unshift(chunk.subarray(take));
      }
      if (offset === length) done();
      else if (stdin.readableEnded || stdin.destroyed) done(new Error('Eingabe endete zu früh'));
    };
    const done = (error?: Error) => {
      for (const event of STDIN_EVENTS) stdin.off(event, attempt);
      if (error) reject(error);
      else resolve(target);
    };
    for (const event of STDIN_EVENTS) stdin.on(event, attempt);
    attempt();
  });
}

/**
 * Puts every thread of this process behind every thread of normal priority, so that its long
 * computation never keeps the event loop from the CPU: a request thread woken on a core the helper
 * holds would otherwise wait milliseconds for its turn (decision 139). Linux keeps a nice value
 * per thread: the threads there now are set one by one, those started later inherit the value.
 * Elsewhere the process's priority is set.
 */
function lowerPriority(): void {
  const lowest = constants.priority.PRIORITY_LOW;
  const threads = process.platform === 'linux' ? readdirSync('/proc/self/task').map(Number) : [0];
  for (const thread of threads) {
    try {
      setPriority(thread, lowest);
    } catch {
      // A thread that ended meanwhile, or a system without priorities: the helper still works.
    }
  }
}

// The helper ends with the process that started it (also when that one was killed) and only then:
// a signal to the whole process group (Ctrl-C, systemd's stop) must not end a job the portal still
// waits for while it drains; the portal ends idle helpers itself.
process.on('disconnect', () => process.exit(0));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
lowerPriority();
