import type { AppContext } from '../context.ts';
import { DAY } from '../clock.ts';

export type MaintenanceContext = Pick<AppContext, 'db' | 'clock' | 'config' | 'logger' | 'storage'>;

/**
 * One piece of the daily maintenance. Each task is idempotent, so several instances may run it at
 * the same time; it logs what it removed itself. Features contribute tasks for their own data
 * (audit retention, delivery marks); `app.ts` lists them (`DAILY_TASKS`).
 */
export interface DailyTask {
  /** Named in the log when the task fails. */
  name: string;
  run(ctx: MaintenanceContext): Promise<void>;
}

/**
 * Runs the tasks once at start and then every 24 hours. A failing task is logged and the others
 * still run. The timer is unref'd, so it never keeps the process alive; `stop()` waits for a run
 * in progress.
 */
export class DailyJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly ctx: MaintenanceContext,
    private readonly tasks: readonly DailyTask[],
    private readonly intervalMs = DAY,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private tick(): void {
    this.running = this.runOnce().finally(() => {
      this.running = undefined;
      if (this.stopped) return;
      this.timer = setTimeout(() => this.tick(), this.intervalMs);
      this.timer.unref();
    });
  }

  private async runOnce(): Promise<void> {
    for (const task of this.tasks) {
      try {
        await task.run(this.ctx);
      } catch (error) {
        this.ctx.logger.error({ err: error, task: task.name }, 'Tägliche Wartung fehlgeschlagen');
      }
    }
  }
}
