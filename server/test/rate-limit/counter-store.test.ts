import { describe, expect, it } from 'vitest';
import { HOUR, MINUTE, TestClock } from '../../src/clock.ts';
import { InMemoryCounterStore } from '../../src/rate-limit/counter-store.ts';

describe('InMemoryCounterStore', () => {
  it('counts within a window and starts anew after it', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock);
    expect(await store.increment('a', MINUTE)).toEqual({ count: 1, resetInMs: MINUTE });
    clock.advance(20_000);
    expect(await store.increment('a', MINUTE)).toEqual({ count: 2, resetInMs: 40_000 });
    expect(await store.peek('a')).toEqual({ count: 2, resetInMs: 40_000 });
    clock.advance(40_000);
    expect(await store.peek('a')).toEqual({ count: 0, resetInMs: 0 });
    expect(await store.increment('a', MINUTE)).toEqual({ count: 1, resetInMs: MINUTE });
    await store.reset('a');
    expect(await store.peek('a')).toEqual({ count: 0, resetInMs: 0 });
  });

  it('takes an increment back within the window, never below zero or into a new window', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock);
    await store.increment('a', MINUTE);
    await store.increment('a', MINUTE);
    await store.decrement('a');
    expect(await store.peek('a')).toEqual({ count: 1, resetInMs: MINUTE });
    await store.decrement('a');
    await store.decrement('a');
    expect((await store.peek('a')).count).toBe(0);
    await store.decrement('fehlt');
    expect(store.size).toBe(1);
  });

  it('holds no more than its cap, whatever number of distinct keys arrives', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock, { maxCounters: 1_000 });
    for (let i = 0; i < 50_000; i += 1) {
      await store.increment(`forgot:10.0.${i >> 8}.${i & 255}:${i}@example.org`, HOUR, 'flood');
      expect(store.size).toBeLessThanOrEqual(1_000);
    }
    expect(store.size).toBe(1_000);
    // The newest counters are kept and keep counting.
    expect((await store.increment('forgot:10.0.195.79:49999@example.org', HOUR, 'flood')).count).toBe(2);
    expect((await store.peek('forgot:10.0.0.0:0@example.org')).count).toBe(0);
  });

  it('keeps every lock and failure counter through a flood of new keys, whatever their windows', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock, { maxCounters: 100 });
    for (let i = 0; i < 30; i += 1) await store.increment('login-client-failed:10.0.0.1', 10 * MINUTE);
    await store.increment('2fa-lock:7', 15 * MINUTE, 'protect');
    for (let i = 0; i < 5_000; i += 1) await store.increment(`forgot:${i}@example.org`, HOUR, 'flood');
    expect(await store.peek('login-client-failed:10.0.0.1')).toEqual({ count: 30, resetInMs: 10 * MINUTE });
    expect((await store.peek('2fa-lock:7')).count).toBe(1);
    expect(store.size).toBe(102);
  });

  it('makes room with the lowest flood count, the oldest of them first', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock, { maxCounters: 3 });
    for (let i = 0; i < 4; i += 1) await store.increment('login-account:ziel@example.org', HOUR, 'flood');
    await store.increment('einmal-1', MINUTE, 'flood');
    await store.increment('einmal-2', MINUTE, 'flood');
    await store.increment('einmal-3', MINUTE, 'flood');
    expect(store.size).toBe(3);
    expect((await store.peek('login-account:ziel@example.org')).count).toBe(4);
    expect((await store.peek('einmal-1')).count).toBe(0);
    expect((await store.peek('einmal-3')).count).toBe(1);
    // Only a store full of higher counts pushes it out.
    for (const key of ['hoch-1', 'hoch-2']) {
      for (let i = 0; i < 8; i += 1) await store.increment(key, HOUR, 'flood');
    }
    expect((await store.peek('login-account:ziel@example.org')).count).toBe(4);
    await store.increment('hoch-3', HOUR, 'flood');
    expect((await store.peek('login-account:ziel@example.org')).count).toBe(0);
  });

  it('refuses a new protected counter when full, and keeps counting the ones it holds', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock, { maxCounters: 10, maxProtected: 2 });
    await store.increment('2fa-wrong:1', 15 * MINUTE, 'protect');
    clock.advance(MINUTE);
    await store.increment('2fa-wrong:2', 15 * MINUTE, 'protect');
    const refused = await store.increment('2fa-wrong:3', 15 * MINUTE, 'protect');
    expect(refused).toEqual({ count: Infinity, resetInMs: 14 * MINUTE });
    // Asked about a failure it may have failed to record, it answers: over the limit.
    expect(await store.peek('login-client-failed:10.0.0.9', 'protect')).toEqual({
      count: Infinity,
      resetInMs: 14 * MINUTE,
    });
    expect((await store.peek('login-client-failed:10.0.0.9')).count).toBe(0);
    expect((await store.increment('2fa-wrong:1', 15 * MINUTE, 'protect')).count).toBe(2);
    // Flood counters neither take the protected room nor are refused.
    expect((await store.increment('forgot:a@example.org', HOUR, 'flood')).count).toBe(1);
    expect(store.protectedSize).toBe(2);
    clock.advance(14 * MINUTE);
    expect((await store.increment('2fa-wrong:3', 15 * MINUTE, 'protect')).count).toBe(1);
  });

  it('promotes a flood count that becomes a failure, so that it is kept', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock, { maxCounters: 2 });
    await store.increment('k', HOUR, 'flood');
    await store.increment('k', HOUR, 'protect');
    for (let i = 0; i < 100; i += 1) {
      for (let j = 0; j < 4; j += 1) await store.increment(`f-${i}`, HOUR, 'flood');
    }
    expect((await store.peek('k')).count).toBe(2);
    expect(store.protectedSize).toBe(1);
    await store.reset('k');
    expect(store.protectedSize).toBe(0);
    expect(store.size).toBe(2);
  });

  it('drops ended counters without waiting for the cap, whatever their window lengths', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock);
    await store.increment('hour', HOUR);
    for (let i = 0; i < 500; i += 1) await store.increment(`minute-${i}`, MINUTE);
    for (let i = 0; i < 500; i += 1) await store.increment(`ten-${i}`, 10 * MINUTE);
    expect(store.size).toBe(1_001);
    clock.advance(MINUTE);
    await store.increment('new', MINUTE);
    // The one-minute counters ended behind a longer one that started before them.
    expect(store.size).toBe(502);
    clock.advance(10 * MINUTE);
    await store.peek('hour');
    expect(store.size).toBe(1);
    clock.advance(HOUR);
    await store.peek('hour');
    expect(store.size).toBe(0);
  });

  it('counts a key reset and started again from one, and forgets the old window', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock, { maxCounters: 2 });
    await store.increment('a', MINUTE);
    await store.reset('a');
    clock.advance(30_000);
    expect(await store.increment('a', MINUTE)).toEqual({ count: 1, resetInMs: MINUTE });
    // The first window's end does not end the second one.
    clock.advance(30_000);
    expect(await store.increment('a', MINUTE)).toEqual({ count: 2, resetInMs: 30_000 });
    expect(store.size).toBe(1);
  });
});
