import type { Clock } from '../clock.ts';

/**
 * What a counter is worth to an attacker who wants it gone (decision 148):
 * - `flood`: counters anyone creates in numbers with cheap anonymous requests (a new client or
 *   e-mail address each time). When the store is full, one of them makes room: the lowest count
 *   first, among equal ones the oldest.
 * - `protect`: failures and locks, created only after a password or code was checked. Never
 *   given up for room. When the store cannot hold another one, it answers as over every limit.
 */
export type CounterKind = 'flood' | 'protect';

/**
 * Fixed-window counters for throttling. In process by default; a Redis implementation shares
 * them between instances.
 */
export interface CounterStore {
  /**
   * Adds one to `key` and returns the count and the milliseconds until the window ends. A
   * `protect` counter (the default) the store has no room for is not kept and answered with
   * `count: Infinity`, so that the caller refuses the work instead of forgetting a lock.
   */
  increment(key: string, windowMs: number, kind?: CounterKind): Promise<{ count: number; resetInMs: number }>;
  /**
   * Current count without adding. Asked with `protect` about a key it does not hold while it has
   * no room for one, the store answers `count: Infinity`: a failure it could not record may be
   * missing.
   */
  peek(key: string, kind?: CounterKind): Promise<{ count: number; resetInMs: number }>;
  /**
   * Takes back one increment (an attempt that turned out not to count) without changing the
   * window; nothing when the window has ended or the count is zero.
   */
  decrement(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

/**
 * Flood counters held in process at most. Each takes about 400 bytes with its key (bench scenario
 * "counters"), so the cap keeps them near 40 MiB whatever a flood of new client or e-mail
 * addresses creates.
 */
export const DEFAULT_MAX_COUNTERS = 100_000;
/** Protected counters held at most, apart from the flood counters (decision 148). */
export const DEFAULT_MAX_PROTECTED_COUNTERS = 50_000;

/** A place in one of the store's lists; a counter is in two (its expiry and, if flood, its rank). */
class Link {
  prev: Link | undefined;
  next: Link | undefined;
  constructor(readonly counter: Counter) {}
}

/** A doubly linked list: push at the end, take from the head, remove from anywhere, all O(1). */
class LinkedList {
  private head: Link | undefined;
  private tail: Link | undefined;
  size = 0;

  first(): Counter | undefined {
    return this.head?.counter;
  }

  push(link: Link): void {
    link.prev = this.tail;
    link.next = undefined;
    if (this.tail) this.tail.next = link;
    else this.head = link;
    this.tail = link;
    this.size += 1;
  }

  remove(link: Link): void {
    if (link.prev) link.prev.next = link.next;
    else this.head = link.next;
    if (link.next) link.next.prev = link.prev;
    else this.tail = link.prev;
    link.prev = undefined;
    link.next = undefined;
    this.size -= 1;
  }
}

interface Counter {
  key: string;
  count: number;
  resetAt: number;
  windowMs: number;
  kind: CounterKind;
  /** Rank among flood counters: 0 for counts up to 1, then ⌊log2(count)⌋. */
  level: number;
  expiry: Link;
  rank: Link;
}

const levelOf = (count: number) => (count < 2 ? 0 : 31 - Math.clz32(count));

export interface InMemoryCounterStoreOptions {
  /** At most this many flood counters; beyond it the lowest count (the oldest of them) goes. */
  maxCounters?: number;
  /** At most this many protected counters; beyond it new ones are refused, none is dropped. */
  maxProtected?: number;
}

/**
 * Counters in a map; per kind and window length a list in order of expiry, and the flood counters
 * also in lists by rank. Every call first drops the counters whose window has ended from the
 * expiry lists' heads, so each counter is looked at a fixed number of times in its life: an
 * increment costs the same with 10 or 1,000,000 counters.
 *
 * Making room takes the flood counter with the lowest rank, the one longest at that rank: a flood
 * of new keys pushes out its own single counts, and pushing out a count of n takes a store full of
 * counts of about n within their windows. Locks and failures are never pushed out (decision 148).
 */
export class InMemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, Counter>();
  /** Few entries: the callers use a handful of constant window lengths. */
  private readonly expiry: Record<CounterKind, Map<number, LinkedList>> = {
    flood: new Map(),
    protect: new Map(),
  };
  /** Flood counters by rank; index = level. */
  private readonly ranks: LinkedList[] = [];
  private readonly held: Record<CounterKind, number> = { flood: 0, protect: 0 };
  private readonly maxCounters: number;
  private readonly maxProtected: number;

  constructor(
    private readonly clock: Clock,
    options: InMemoryCounterStoreOptions = {},
  ) {
    this.maxCounters = Math.max(1, options.maxCounters ?? DEFAULT_MAX_COUNTERS);
    this.maxProtected = Math.max(1, options.maxProtected ?? DEFAULT_MAX_PROTECTED_COUNTERS);
  }

  /** Counters held now (for tests and the benchmark). */
  get size(): number {
    return this.counters.size;
  }

  /** Protected counters held now (for tests). */
  get protectedSize(): number {
    return this.held.protect;
  }

  private rankList(level: number): LinkedList {
    let list = this.ranks[level];
    if (!list) this.ranks[level] = list = new LinkedList();
    return list;
  }

  private enlist(counter: Counter): void {
    const lists = this.expiry[counter.kind];
    let list = lists.get(counter.windowMs);
    if (!list) lists.set(counter.windowMs, (list = new LinkedList()));
    list.push(counter.expiry);
    if (counter.kind === 'flood') this.rankList(counter.level).push(counter.rank);
    this.held[counter.kind] += 1;
  }

  private delist(counter: Counter): void {
    const lists = this.expiry[counter.kind];
    const list = lists.get(counter.windowMs)!;
    list.remove(counter.expiry);
    if (list.size === 0) lists.delete(counter.windowMs);
    if (counter.kind === 'flood') this.ranks[counter.level]!.remove(counter.rank);
    this.held[counter.kind] -= 1;
  }

  private drop(counter: Counter): void {
    this.delist(counter);
    this.counters.delete(counter.key);
  }

  private sweep(now: number): void {
    for (const lists of Object.values(this.expiry)) {
      for (const list of lists.values()) {
        for (let head = list.first(); head && head.resetAt <= now; head = list.first()) {
          this.drop(head);
        }
      }
    }
  }

  /** Drops the flood counter of the lowest rank that has been there longest. */
  private evictFlood(): void {
    for (const list of this.ranks) {
      const counter = list?.first();
      if (counter) {
        this.drop(counter);
        return;
      }
    }
  }

  private rerank(counter: Counter): void {
    const level = levelOf(counter.count);
    if (counter.kind !== 'flood' || level === counter.level) return;
    this.ranks[counter.level]!.remove(counter.rank);
    counter.level = level;
    this.rankList(level).push(counter.rank);
  }

  /** Over every limit until the soonest protected counter ends and makes room. */
  private refused(now: number): { count: number; resetInMs: number } {
    let soonest = Infinity;
    for (const list of this.expiry.protect.values()) {
      soonest = Math.min(soonest, list.first()?.resetAt ?? Infinity);
    }
    return { count: Infinity, resetInMs: Number.isFinite(soonest) ? Math.max(1, soonest - now) : 1_000 };
  }

  private protectedFull(): boolean {
    return this.held.protect >= this.maxProtected;
  }

  /** The running counter of `key`; one whose window ended is gone (also if the clock went back). */
  private live(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    if (counter && counter.resetAt <= now) {
      this.drop(counter);
      return undefined;
    }
    return counter;
  }

  async increment(key: string, windowMs: number, kind: CounterKind = 'protect') {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let counter = this.live(key, now);
    if (!counter) {
      if (kind === 'protect' && this.protectedFull()) return this.refused(now);
      if (kind === 'flood') while (this.held.flood >= this.maxCounters) this.evictFlood();
      const created = { key, count: 0, resetAt: now + windowMs, windowMs, kind, level: 0 } as Counter;
      created.expiry = new Link(created);
      created.rank = new Link(created);
      this.counters.set(key, created);
      this.enlist(created);
      counter = created;
    } else if (kind === 'protect' && counter.kind === 'flood' && !this.protectedFull()) {
      // A count that turned into a failure or a lock is no longer given up for room. Its window
      // may end before those queued ahead of it: it then goes when they do, or when next asked.
      this.delist(counter);
      counter.kind = 'protect';
      this.enlist(counter);
    }
    counter.count += 1;
    this.rerank(counter);
    return { count: counter.count, resetInMs: counter.resetAt - now };
  }

  async peek(key: string, kind?: CounterKind) {
    const now = this.clock.now().getTime();
    this.sweep(now);
    const counter = this.live(key, now);
    if (!counter && kind === 'protect' && this.protectedFull()) return this.refused(now);
    return { count: counter?.count ?? 0, resetInMs: counter ? counter.resetAt - now : 0 };
  }

  async decrement(key: string) {
    const counter = this.live(key, this.clock.now().getTime());
    if (counter && counter.count > 0) {
      counter.count -= 1;
      this.rerank(counter);
    }
  }

  async reset(key: string) {
    const counter = this.counters.get(key);
    if (counter) this.drop(counter);
  }
}
