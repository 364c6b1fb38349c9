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
      await store.increment(`forgot:10.0.${i >> 8}.${i & 255}:${i}@example.org`, HOUR);
      expect(store.size).toBeLessThanOrEqual(1_000);
    }
    expect(store.size).toBe(1_000);
    // The newest counters are kept and keep counting.
    expect((await store.increment('forgot:10.0.195.79:49999@example.org', HOUR)).count).toBe(2);
    expect((await store.peek('forgot:10.0.0.0:0@example.org')).count).toBe(0);
  });

  it('makes room with the counter that ends soonest', async () => {
    const clock = new TestClock();
    const store = new InMemoryCounterStore(clock, { maxCounters: 3 });
    await store.increment('long', HOUR);
    clock.advance(1_000);
    await store.increment('short-1', MINUTE);
    await store.increment('short-2', MINUTE);
    await store.increment('short-3', MINUTE);
    expect(store.size).toBe(3);
    expect((await store.peek('long')).count).toBe(1);
    expect((await store.peek('short-1')).count).toBe(0);
    expect((await store.peek('short-3')).count).toBe(1);
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
