import { describe, expect, it } from 'vitest';
import {
  HashingBusyError,
  PasswordQueue,
  type HashPriority,
  type Timed,
} from '../../src/credentials/password-queue.ts';

/** Work that runs until the test finishes it and says how long it took. */
function harness(
  options: { concurrency?: number; maxSignInWaitMs?: number; initialEstimateMs?: number } = {},
) {
  const queue = new PasswordQueue({
    concurrency: options.concurrency ?? 1,
    maxSignInWaitMs: options.maxSignInWaitMs ?? 1_000,
    initialEstimateMs: options.initialEstimateMs ?? 100,
  });
  const started: string[] = [];
  const finishers = new Map<string, (ms: number) => void>();
  const submit = (name: string, priority: HashPriority) =>
    queue.run(priority, () => {
      started.push(name);
      return new Promise<Timed<string>>((resolve) =>
        finishers.set(name, (ms) => resolve({ value: name, ms })),
      );
    });
  /** Lets `name` end, reporting `ms`, and waits until the next one has started. */
  const finish = async (name: string, ms = 100) => {
    finishers.get(name)!(ms);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, started, submit, finish };
}

describe('PasswordQueue', () => {
  it('gives a free slot to reset, invitation and password work before waiting sign-ins', async () => {
    const { started, submit, finish } = harness({ concurrency: 1 });
    const running = submit('anmeldung-1', 'sign-in');
    const signIns = [submit('anmeldung-2', 'sign-in'), submit('anmeldung-3', 'sign-in')];
    const reset = submit('reset', 'account');
    const invitation = submit('einladung', 'account');
    expect(started).toEqual(['anmeldung-1']);
    await finish('anmeldung-1');
    expect(started).toEqual(['anmeldung-1', 'reset']);
    await finish('reset');
    await finish('einladung');
    expect(started).toEqual(['anmeldung-1', 'reset', 'einladung', 'anmeldung-2']);
    await finish('anmeldung-2');
    await finish('anmeldung-3');
    expect(await Promise.all([running, ...signIns, reset, invitation])).toEqual([
      'anmeldung-1',
      'anmeldung-2',
      'anmeldung-3',
      'reset',
      'einladung',
    ]);
  });

  it('refuses a sign-in at once when the work ahead would take longer than allowed, never other work', async () => {
    // 100 ms per computation, one at a time, at most 1 s of waiting.
    const { queue, submit, finish } = harness({ concurrency: 1, maxSignInWaitMs: 1_000 });
    const admitted = Array.from({ length: 11 }, (_, i) => submit(`anmeldung-${i}`, 'sign-in'));
    expect(queue.estimatedWaitMs('sign-in')).toBe(1_100);
    await expect(submit('zu-viel', 'sign-in')).rejects.toBeInstanceOf(HashingBusyError);
    const refused = await submit('zu-viel', 'sign-in').catch((error: HashingBusyError) => error);
    expect((refused as HashingBusyError).retryAfterMs).toBe(1_100);
    expect(queue.pending).toBe(11);

    // Account work is never refused, and it goes first.
    const reset = submit('reset', 'account');
    expect(queue.pending).toBe(12);
    await finish('anmeldung-0');
    await finish('reset');
    await expect(reset).resolves.toBe('reset');

    // Room again after a few finished.
    await finish('anmeldung-1');
    await finish('anmeldung-2');
    const later = submit('später', 'sign-in');
    expect(queue.pending).toBe(9);
    for (let i = 3; i < 11; i += 1) await finish(`anmeldung-${i}`);
    await finish('später');
    await expect(later).resolves.toBe('später');
    await expect(Promise.all(admitted)).resolves.toHaveLength(11);
  });

  it('estimates from a moving average of the durations the work reports', async () => {
    const { queue, submit, finish } = harness({ concurrency: 2, initialEstimateMs: 100 });
    expect(queue.estimatedWaitMs('sign-in')).toBe(0);
    const work = [submit('a', 'sign-in'), submit('b', 'sign-in'), submit('c', 'sign-in')];
    // Two run, one waits: the next would be third in line for two slots.
    expect(queue.estimatedWaitMs('sign-in')).toBe(100);
    expect(queue.estimatedWaitMs('account')).toBe(50);
    await finish('a', 600);
    expect(queue.averageMs).toBeCloseTo(200);
    await finish('b', 600);
    expect(queue.averageMs).toBeCloseTo(280);
    await finish('c', 0);
    expect(queue.averageMs).toBeCloseTo(224);
    await Promise.all(work);
    expect(queue.pending).toBe(0);
  });

  it('learns from the reported duration, not from how long the work took (a helper that had to start)', async () => {
    const queue = new PasswordQueue({ concurrency: 1, maxSignInWaitMs: 1_000, initialEstimateMs: 20 });
    const value = await queue.run('sign-in', async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { value: 'geprüft', ms: 20 };
    });
    expect(value).toBe('geprüft');
    expect(queue.averageMs).toBeCloseTo(20);
  });
});
