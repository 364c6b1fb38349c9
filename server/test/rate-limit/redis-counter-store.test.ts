import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';
import { RedisCounterStore } from '../../src/rate-limit/redis-counter-store.ts';
import {
  LOGIN_ACCOUNT_THROTTLED_MESSAGE,
  LOGIN_CLIENT_THROTTLED_MESSAGE,
} from '@gremienportal/contracts/auth';

/** A Redis for the tests: REDIS_URL, else the local default, else a private `redis-server`. */
async function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1');
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let redisUrl: string;
let ownRedis: ChildProcess | undefined;

beforeAll(async () => {
  if (process.env.REDIS_URL) {
    redisUrl = process.env.REDIS_URL;
    return;
  }
  if (await reachable(6379)) {
    redisUrl = 'redis://127.0.0.1:6379';
    return;
  }
  if (spawnSync('sh', ['-c', 'command -v redis-server']).status !== 0) {
    throw new Error('Kein Redis erreichbar und redis-server fehlt: apt-get install -y redis-server');
  }
  const port = await freePort();
  ownRedis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  ownRedis.once('error', () => undefined);
  await vi.waitFor(
    async () => {
      if (!(await reachable(port))) throw new Error('redis-server (Debian-Paket redis-server) startet nicht');
    },
    { timeout: 10_000, interval: 100 },
  );
  redisUrl = `redis://127.0.0.1:${port}`;
});

afterAll(() => {
  ownRedis?.kill('SIGTERM');
});

const prefix = () => `gp-test-${randomBytes(6).toString('hex')}:`;

describe('RedisCounterStore', () => {
  const stores: RedisCounterStore[] = [];
  const open = (options: { prefix: string; logger?: { warn: () => void } }) => {
    const store = RedisCounterStore.connect(redisUrl, options);
    stores.push(store);
    return store;
  };
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it('counts atomically across connections, as several instances do', async () => {
    const shared = prefix();
    const [a, b] = [open({ prefix: shared }), open({ prefix: shared })];
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a : b).increment('login:1.2.3.4:x@example.org', 60_000),
      ),
    );
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    for (const result of results) {
      expect(result.resetInMs).toBeGreaterThan(55_000);
      expect(result.resetInMs).toBeLessThanOrEqual(60_000);
    }
    expect((await b.peek('login:1.2.3.4:x@example.org')).count).toBe(40);
  });

  it('starts the window at the first hit and forgets the count when it ends', async () => {
    const store = open({ prefix: prefix() });
    expect(await store.increment('k', 300)).toMatchObject({ count: 1 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A later hit does not extend the window (fixed window).
    const second = await store.increment('k', 300);
    expect(second.count).toBe(2);
    expect(second.resetInMs).toBeLessThanOrEqual(210);
    await new Promise((resolve) => setTimeout(resolve, second.resetInMs + 50));
    expect(await store.peek('k')).toEqual({ count: 0, resetInMs: 0 });
    expect(await store.increment('k', 300)).toMatchObject({ count: 1 });
  });

  it('resets a key, and keeps keys of other prefixes apart', async () => {
    const first = open({ prefix: prefix() });
    const second = open({ prefix: prefix() });
    await first.increment('same', 60_000);
    await first.increment('same', 60_000);
    await second.increment('same', 60_000);
    expect((await first.peek('same')).count).toBe(2);
    expect((await second.peek('same')).count).toBe(1);
    await first.reset('same');
    expect((await first.peek('same')).count).toBe(0);
    expect((await second.peek('same')).count).toBe(1);
  });

  it('takes an increment back within the window, and never creates a key', async () => {
    const p = prefix();
    const raw = new Redis(redisUrl);
    try {
      const store = open({ prefix: p });
      for (let i = 0; i < 3; i += 1) await store.increment('k', 60_000);
      await store.decrement('k');
      expect(await store.peek('k')).toMatchObject({ count: 2 });
      expect(await raw.pttl(`${p}k`)).toBeGreaterThan(50_000);
      await store.decrement('k');
      await store.decrement('k');
      await store.decrement('k');
      expect((await store.peek('k')).count).toBe(0);
      await store.decrement('fehlt');
      expect(await raw.exists(`${p}fehlt`)).toBe(0);
    } finally {
      await raw.quit();
    }
  });

  it('repairs a counter that has no expiry', async () => {
    const p = prefix();
    const raw = new Redis(redisUrl);
    try {
      await raw.set(`${p}ewig`, '7');
      const store = open({ prefix: p });
      const result = await store.increment('ewig', 5_000);
      expect(result.count).toBe(8);
      expect(result.resetInMs).toBeGreaterThan(0);
      expect(await raw.pttl(`${p}ewig`)).toBeGreaterThan(0);
    } finally {
      await raw.quit();
    }
  });

  it('keeps a lock through a flood of new keys: every key has its own expiry, none is removed', async () => {
    const p = prefix();
    const raw = new Redis(redisUrl);
    try {
      const store = open({ prefix: p });
      await store.increment('2fa-lock:7', 15 * 60_000, 'protect');
      for (let i = 0; i < 30; i += 1)
        await store.increment('login-client-failed:10.0.0.1', 10 * 60_000, 'protect');
      await Promise.all(
        Array.from({ length: 5_000 }, (_, i) =>
          store.increment(`forgot:${i}@example.org`, 3_600_000, 'flood'),
        ),
      );
      expect((await store.peek('2fa-lock:7', 'protect')).count).toBe(1);
      expect((await store.peek('login-client-failed:10.0.0.1', 'protect')).count).toBe(30);
      const keys = await raw.keys(`${p}*`);
      expect(keys).toHaveLength(5_002);
      const ttls = await Promise.all(keys.map((key) => raw.pttl(key)));
      expect(ttls.filter((ttl) => ttl <= 0)).toEqual([]);
      // A key it does not hold is no lock, whatever its kind: Redis has room or refuses the write.
      expect(await store.peek('2fa-lock:8', 'protect')).toEqual({ count: 0, resetInMs: 0 });
      await raw.del(...keys);
    } finally {
      await raw.quit();
    }
  });

  it('warns when Redis may evict keys once its memory is full', async () => {
    const warn = vi.fn();
    const store = open({ prefix: prefix(), logger: { warn } });
    const policy = await store.checkEvictionPolicy();
    // The local Redis is set up as the README asks; the warning itself is checked with a private one.
    if (policy === 'noeviction') expect(warn).not.toHaveBeenCalled();
    if (spawnSync('sh', ['-c', 'command -v redis-server']).status !== 0) return;
    const port = await freePort();
    const evicting = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'volatile-lru',
      ],
      { stdio: 'ignore' },
    );
    try {
      await vi.waitFor(
        async () => {
          if (!(await reachable(port))) throw new Error('redis-server startet nicht');
        },
        { timeout: 10_000, interval: 100 },
      );
      const warned = vi.fn();
      const checked = RedisCounterStore.connect(`redis://127.0.0.1:${port}`, { logger: { warn: warned } });
      stores.push(checked);
      await vi.waitFor(() =>
        expect(warned).toHaveBeenCalledWith({ maxmemoryPolicy: 'volatile-lru' }, expect.any(String)),
      );
    } finally {
      evicting.kill('SIGTERM');
    }
  });

  it('falls back to counting in this instance, quickly and with a warning, while Redis is away', async () => {
    const warn = vi.fn();
    const port = await freePort();
    const store = RedisCounterStore.connect(`redis://127.0.0.1:${port}`, { logger: { warn } });
    try {
      const started = Date.now();
      const counts = [];
      for (let i = 0; i < 3; i += 1) counts.push((await store.increment('weg', 60_000)).count);
      expect(counts).toEqual([1, 2, 3]);
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(warn).toHaveBeenCalledTimes(1);
      await store.reset('weg');
      expect((await store.peek('weg')).count).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('login throttle with REDIS_URL', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    [first, second] = await Promise.all([
      buildTestApp({ env: { REDIS_URL: redisUrl } }),
      buildTestApp({ env: { REDIS_URL: redisUrl } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it('counts failed sign-ins across instances', async () => {
    expect(first.app.context.counters).toBeInstanceOf(RedisCounterStore);
    const email = `gesperrt-${randomBytes(6).toString('hex')}@example.org`;
    // An address of its own per run: the Redis may be shared, and the client limit lasts 10 minutes.
    const remoteAddress = `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    const attempt = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        remoteAddress,
        payload: { email, password: 'falsches-passwort' },
      });
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await attempt(i % 2 === 0 ? first : second)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const refused = await attempt(first);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/Minute/);
  });
});

describe('client and account limits with REDIS_URL', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const env = {
      REDIS_URL: redisUrl,
      LOGIN_MAX_FAILURES_PER_CLIENT: '4',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '6',
    };
    [first, second] = await Promise.all([buildTestApp({ env }), buildTestApp({ env })]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  const run = randomBytes(4).toString('hex');
  const attempt = (t: TestApp, email: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress,
      payload: { email, password: 'falsches-passwort' },
    });

  it('limits the failures of one client across instances, whatever addresses it tries', async () => {
    const client = `2001:db8:1::${run.slice(0, 4)}:${run.slice(4)}`;
    const statuses = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await attempt(i % 2 === 0 ? first : second, `spray-${run}-${i}@example.org`, client);
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const refused = await attempt(second, `spray-${run}-x@example.org`, client);
    expect(refused.json()).toEqual({ message: LOGIN_CLIENT_THROTTLED_MESSAGE });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(500);
  });

  it('limits the failures for one address across instances and clients', async () => {
    const email = `ziel-${run}@example.org`;
    const statuses = [];
    for (let i = 0; i < 7; i += 1) {
      const res = await attempt(i % 2 === 0 ? first : second, email, `2001:db8:2::${run.slice(0, 4)}:${i}`);
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    const refused = await attempt(first, email, `2001:db8:3::${run.slice(0, 4)}`);
    expect(refused.json()).toEqual({ message: LOGIN_ACCOUNT_THROTTLED_MESSAGE });
  });
});
