import { Redis } from 'ioredis';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { systemClock } from '../clock.ts';
import { InMemoryCounterStore, type CounterKind, type CounterStore } from './counter-store.ts';

/**
 * One round trip, atomic on the server: count, start the window on the first hit, and report
 * the time left. A key without expiry (which no path here creates) gets one, so a counter can
 * never lock someone out for good.
 */
const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

/** Only a running counter goes down: a DECR on an ended one would create a key without expiry. */
const DECREMENT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  redis.call('DECR', KEYS[1])
end
return 1
`;

const PEEK = `
local count = redis.call('GET', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
return { count or '0', ttl }
`;

export interface RedisCounterStoreOptions {
  /** Prepended to every key, so several portals (or tests) can share one Redis. */
  prefix?: string;
  logger?: Pick<Logger, 'warn'>;
  /**
   * Used while Redis cannot be reached: limits then hold per instance instead of failing every
   * sign-in. Defaults to counters in this process.
   */
  fallback?: CounterStore;
}

type CountReply = [number | string, number | string];

/**
 * Fixed-window counters in Redis, shared by every instance: a limit holds across the cluster.
 * Windows run on Redis's clock (key expiry), not on the instances' clocks. Every key carries its
 * own expiry and nothing here removes a running one, so the kinds of counter (decision 148) need
 * no room of their own: only a Redis set to evict keys when its memory is full could drop a lock,
 * and `connect` warns about such a setting.
 */
export class RedisCounterStore implements CounterStore {
  private readonly prefix: string;
  private readonly fallback: CounterStore;
  private lastWarning = 0;

  constructor(
    private readonly redis: Redis,
    private readonly options: RedisCounterStoreOptions = {},
  ) {
    this.prefix = options.prefix ?? 'gremienportal:';
    this.fallback = options.fallback ?? new InMemoryCounterStore(systemClock);
    this.redis.defineCommand('gpIncrement', { numberOfKeys: 1, lua: INCREMENT });
    this.redis.defineCommand('gpPeek', { numberOfKeys: 1, lua: PEEK });
    this.redis.defineCommand('gpDecrement', { numberOfKeys: 1, lua: DECREMENT });
  }

  /** Connects to `url` with settings that fail fast when Redis is away. */
  static connect(url: string, options: RedisCounterStoreOptions = {}): RedisCounterStore {
    const redis = new Redis(url, {
      // A sign-in must not hang on a missing Redis: give up after one retry or one second.
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
      connectTimeout: 5_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    // Errors surface on the commands (and are logged there); an unhandled 'error' event would
    // only crash the process.
    redis.on('error', () => undefined);
    const store = new RedisCounterStore(redis, options);
    void store.checkEvictionPolicy();
    return store;
  }

  /**
   * Warns when Redis may evict keys once its memory is full (any `maxmemory-policy` but
   * `noeviction`): every key here has an expiry, so even the `volatile-*` policies could drop a
   * lock. With `noeviction` a full Redis refuses the increment and the store counts in process
   * meanwhile. Returns the policy; undefined where CONFIG is not allowed (a managed Redis).
   */
  async checkEvictionPolicy(): Promise<string | undefined> {
    let policy: string | undefined;
    try {
      const reply = (await this.redis.config('GET', 'maxmemory-policy')) as string[];
      policy = reply[1];
    } catch {
      return undefined;
    }
    if (policy && policy !== 'noeviction') {
      this.options.logger?.warn(
        { maxmemoryPolicy: policy },
        'Redis kann bei vollem Speicher Schlüssel verdrängen, auch Sperrzähler: maxmemory-policy noeviction einstellen',
      );
    }
    return policy;
  }

  private key(key: string): string {
    return `${this.prefix}${key}`;
  }

  private degraded(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 30_000) return;
    this.lastWarning = now;
    this.options.logger?.warn(
      { err: error },
      'Redis nicht erreichbar: Zähler gelten vorübergehend nur in dieser Instanz',
    );
  }

  async increment(
    key: string,
    windowMs: number,
    kind?: CounterKind,
  ): Promise<{ count: number; resetInMs: number }> {
    try {
      const [count, ttl] = (await this.call(
        'gpIncrement',
        this.key(key),
        Math.max(1, Math.ceil(windowMs)),
      )) as CountReply;
      return { count: Number(count), resetInMs: Math.max(0, Number(ttl)) };
    } catch (error) {
      this.degraded(error);
      return this.fallback.increment(key, windowMs, kind);
    }
  }

  async peek(key: string, kind?: CounterKind): Promise<{ count: number; resetInMs: number }> {
    try {
      const [count, ttl] = (await this.call('gpPeek', this.key(key))) as CountReply;
      return { count: Number(count), resetInMs: Math.max(0, Number(ttl)) };
    } catch (error) {
      this.degraded(error);
      return this.fallback.peek(key, kind);
    }
  }

  async decrement(key: string): Promise<void> {
    await this.fallback.decrement(key);
    try {
      await this.call('gpDecrement', this.key(key));
    } catch (error) {
      this.degraded(error);
    }
  }

  async reset(key: string): Promise<void> {
    await this.fallback.reset(key);
    try {
      await this.redis.del(this.key(key));
    } catch (error) {
      this.degraded(error);
    }
  }

  private call(
    command: 'gpIncrement' | 'gpPeek' | 'gpDecrement',
    ...args: (string | number)[]
  ): Promise<unknown> {
    const custom = this.redis as unknown as Record<string, (...a: (string | number)[]) => Promise<unknown>>;
    return custom[command]!(...args);
  }

  /** Ends the connection; pending commands finish first. */
  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
