import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DAY } from '../../src/clock.ts';
import { DAILY_TASKS } from '../../src/app.ts';
import { recordAudit } from '../../src/features/audit/audit-log.service.ts';
import { DailyJob } from '../../src/maintenance/daily-job.ts';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';

describe('DailyJob', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(() => t.close());

  const count = async () => (await t.db.kysely.selectFrom('audit_log').select('id').execute()).length;
  const addOld = () =>
    recordAudit(
      t.db.kysely,
      { now: () => new Date(t.clock.now().getTime() - 400 * DAY) },
      { action: 'auth.login' },
    );

  it('runs once at start, then again after each interval, and not after stop', async () => {
    await addOld();
    const job = new DailyJob(t.app.context, DAILY_TASKS, 50);
    job.start();
    await vi.waitFor(async () => expect(await count()).toBe(0), { timeout: 2000, interval: 5 });

    await addOld();
    await vi.waitFor(async () => expect(await count()).toBe(0), { timeout: 2000, interval: 5 });

    await job.stop();
    await addOld();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await count()).toBe(1);
  });

  it('does not keep the process alive and waits for a running pass on stop', async () => {
    await addOld();
    const job = new DailyJob(t.app.context, DAILY_TASKS);
    job.start();
    await job.stop();
    expect(await count()).toBe(0);
    const started = new DailyJob(t.app.context, DAILY_TASKS);
    started.start();
    await vi.waitFor(() => {
      const timer = (started as unknown as { timer?: NodeJS.Timeout }).timer;
      expect(timer).toBeDefined();
      expect(timer!.hasRef()).toBe(false);
    });
    await started.stop();
  });

  it('logs a failed pass and keeps running', async () => {
    const errors: unknown[] = [];
    const logger = {
      ...t.app.context.logger,
      error: (...args: unknown[]) => errors.push(args),
      info: () => {},
    };
    const broken = {
      ...t.app.context,
      logger: logger as unknown as typeof t.app.context.logger,
      db: {
        ...t.app.context.db,
        kysely: new Proxy(t.app.context.db.kysely, {
          get(target, prop, receiver) {
            if (prop === 'deleteFrom') throw new Error('Datenbank weg');
            return Reflect.get(target, prop, receiver);
          },
        }),
      },
    };
    const job = new DailyJob(broken, DAILY_TASKS, 20);
    job.start();
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(2 * DAILY_TASKS.length), {
      timeout: 2000,
      interval: 5,
    });
    await job.stop();
  });

  it('runs the remaining tasks when one fails and names the failed one in the log', async () => {
    const logged: unknown[][] = [];
    const logger = { ...t.app.context.logger, error: (...args: unknown[]) => logged.push(args) };
    const ran: string[] = [];
    const job = new DailyJob({ ...t.app.context, logger: logger as unknown as typeof t.app.context.logger }, [
      { name: 'erste', run: async () => void ran.push('erste') },
      { name: 'kaputt', run: () => Promise.reject(new Error('Datenbank weg')) },
      { name: 'letzte', run: async () => void ran.push('letzte') },
    ]);
    job.start();
    await job.stop();
    expect(ran).toEqual(['erste', 'letzte']);
    expect(logged).toHaveLength(1);
    expect(logged[0]![0]).toMatchObject({ task: 'kaputt' });
  });
});
