import type { Clock } from '../clock.ts';

/**
 * Fixed-window counters for throttling. In process by default; a Redis implementation shares
 * them between instances.
 */
export interface CounterStore {
  /** Adds one to `key` and returns the count and the milliseconds until the window ends. */
  increment(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /** Current count without adding. */
  peek(key: string): Promise<{ count: number; resetInMs: number }>;
  /**
   * Takes back one increment (an attempt that turned out not to count) without changing the
   * window; nothing when the window has ended or the count is zero.
   */
  decrement(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/**
 * Counters held in process at most. Each takes about 400 bytes with its key (bench scenario
 * "counters"), so the cap keeps the store near 40 MiB whatever a flood of new client or e-mail
 * addresses creates.
 */
export const DEFAULT_MAX_COUNTERS = 100_000;

interface Counter {
  key: string;
  count: number;
  resetAt: number;
}

/**
 * The counters of one window length in the order they were started, which is the order they end:
 * the head always ends first. An array with a moving head, compacted now and then.
 */
class ExpiryQueue {
  private items: Counter[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  first(): Counter | undefined {
    return this.items[this.head];
  }

  push(counter: Counter): void {
    this.items.push(counter);
  }

  shift(): Counter | undefined {
    const counter = this.items[this.head];
    if (counter === undefined) return undefined;
    this.head += 1;
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return counter;
  }
}

export interface InMemoryCounterStoreOptions {
  /** At most this many counters; beyond it the ones closest to their end go first. */
  maxCounters?: number;
}

/**
 * Counters in a map, and per window length a queue in order of expiry. Every call first drops
 * the counters whose window has ended from the queues' heads, so each counter is looked at a
 * fixed number of times in its life: an increment costs the same with 10 or 1,000,000 counters.
 * When the cap is reached, the counter that would end soonest makes room (it would have counted
 * the least longer).
 */
export class InMemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, Counter>();
  /** Few entries: the callers use a handful of constant window lengths. */
  private readonly queues = new Map<number, ExpiryQueue>();
  /** Queue records, including those of counters already reset; never more than the cap. */
  private queued = 0;
  private readonly maxCounters: number;

  constructor(
    private readonly clock: Clock,
    options: InMemoryCounterStoreOptions = {},
  ) {
    this.maxCounters = Math.max(1, options.maxCounters ?? DEFAULT_MAX_COUNTERS);
  }

  /** Counters held now (for tests and the benchmark). */
  get size(): number {
    return this.counters.size;
  }

  private drop(counter: Counter): void {
    this.queued -= 1;
    // A reset counter may have been started anew under the same key: only this one goes.
    if (this.counters.get(counter.key) === counter) this.counters.delete(counter.key);
  }

  private sweep(now: number): void {
    for (const [windowMs, queue] of this.queues) {
      for (let head = queue.first(); head && head.resetAt <= now; head = queue.first()) {
        this.drop(queue.shift()!);
      }
      if (queue.length === 0) this.queues.delete(windowMs);
    }
  }

  /** Drops the record that ends soonest across the queues. */
  private evictOne(): void {
    let soonest: ExpiryQueue | undefined;
    for (const queue of this.queues.values()) {
      const head = queue.first();
      if (head && (!soonest || head.resetAt < soonest.first()!.resetAt)) soonest = queue;
    }
    const counter = soonest?.shift();
    if (counter) this.drop(counter);
  }

  /** The running counter of `key`; one whose window ended is gone (also if the clock went back). */
  private live(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    if (counter && counter.resetAt <= now) {
      this.counters.delete(key);
      return undefined;
    }
    return counter;
  }

  async increment(key: string, windowMs: number) {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let counter = this.live(key, now);
    if (!counter) {
      while (this.queued >= this.maxCounters) this.evictOne();
      counter = { key, count: 0, resetAt: now + windowMs };
      this.counters.set(key, counter);
      let queue = this.queues.get(windowMs);
      if (!queue) this.queues.set(windowMs, (queue = new ExpiryQueue()));
      queue.push(counter);
      this.queued += 1;
    }
    counter.count += 1;
    return { count: counter.count, resetInMs: counter.resetAt - now };
  }

  async peek(key: string) {
    const now = this.clock.now().getTime();
    this.sweep(now);
    const counter = this.live(key, now);
    return { count: counter?.count ?? 0, resetInMs: counter ? counter.resetAt - now : 0 };
  }

  async decrement(key: string) {
    const counter = this.live(key, this.clock.now().getTime());
    if (counter && counter.count > 0) counter.count -= 1;
  }

  async reset(key: string) {
    this.counters.delete(key);
  }
}
