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
  reset(key: string): Promise<void>;
}

export class InMemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly clock: Clock) {}

  private live(key: string) {
    const now = this.clock.now().getTime();
    const entry = this.counters.get(key);
    if (entry && entry.resetAt <= now) {
      this.counters.delete(key);
      return undefined;
    }
    return entry;
  }

  async increment(key: string, windowMs: number) {
    const now = this.clock.now().getTime();
    if (this.counters.size > 10_000) {
      for (const [k, v] of this.counters) if (v.resetAt <= now) this.counters.delete(k);
    }
    const entry = this.live(key) ?? { count: 0, resetAt: now + windowMs };
    entry.count += 1;
    this.counters.set(key, entry);
    return { count: entry.count, resetInMs: entry.resetAt - now };
  }

  async peek(key: string) {
    const entry = this.live(key);
    return { count: entry?.count ?? 0, resetInMs: entry ? entry.resetAt - this.clock.now().getTime() : 0 };
  }

  async reset(key: string) {
    this.counters.delete(key);
  }
}
