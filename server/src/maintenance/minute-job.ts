/**
 * Work that must follow the clock closely (a membership starting at midnight, a digest due at
 * 07:00): runs at start and
 * then every `intervalMs` on every instance. The work itself makes each change once (claims in the
 * database), so several instances may run it at the same time. A failing run is logged and the
 * next one tries again; the timer never keeps the process alive; `stop()` waits for a run.
 */
export class MinuteJob<T = unknown> {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<T> | undefined;

  constructor(
    private readonly name: string,
    private readonly logger: { error(details: object, message: string): void },
    private readonly work: () => Promise<T>,
    private readonly intervalMs = 60_000,
  ) {}

  start(): void {
    const tick = () => {
      void this.run()
        .catch((error: unknown) =>
          this.logger.error({ err: error, job: this.name }, 'Hintergrundaufgabe unterbrochen'),
        )
        .finally(() => {
          if (this.timer) {
            this.timer = setTimeout(tick, this.intervalMs);
            this.timer.unref();
          }
        });
    };
    this.timer = setTimeout(tick, 0);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One run now; concurrent calls share it. */
  run(): Promise<T> {
    this.running ??= this.work().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
