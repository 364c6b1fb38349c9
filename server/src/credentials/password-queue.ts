/**
 * Who waits for a password hash: `account` is work someone already proved a right to (a reset or
 * invitation link, a signed-in password change, an admin creating a user); `sign-in` is an
 * anonymous attempt that anybody can send.
 */
export type HashPriority = 'account' | 'sign-in';

/** A sign-in would wait longer than the queue allows. */
export class HashingBusyError extends Error {
  constructor(readonly retryAfterMs: number) {
    super('Passwortprüfung ausgelastet');
    this.name = 'HashingBusyError';
  }
}

export interface PasswordQueueOptions {
  /** Computations at the same time. */
  concurrency: number;
  /** A sign-in is refused when the work ahead of it is estimated to take longer than this. */
  maxSignInWaitMs: number;
  /** Assumed duration of one computation until some were measured. */
  initialEstimateMs: number;
}

/**
 * What a computation gives back: its value, and how long the computation itself took. The work
 * measures that itself: the time it waited for a helper process to start is no estimate of the
 * next computation (a start under load took seconds and made the queue refuse sign-ins).
 */
export interface Timed<T> {
  value: T;
  ms: number;
}

/** Weight of the newest duration in the moving average. */
const SMOOTHING = 0.2;

/**
 * Runs at most `concurrency` computations at a time; the others wait in two lines, and a free
 * slot always goes to `account` work first. The `sign-in` line is bounded by time, not length:
 * the estimated wait (work ahead × moving average of the durations the work reported ÷
 * concurrency) must stay below `maxSignInWaitMs`, else the sign-in is refused at once with
 * HashingBusyError. A flood of sign-ins so costs its senders a quick refusal instead of costing
 * everyone a queue of seconds.
 */
export class PasswordQueue {
  private running = 0;
  private readonly waiting: Record<HashPriority, (() => void)[]> = { account: [], 'sign-in': [] };
  private average: number;

  constructor(private readonly options: PasswordQueueOptions) {
    this.average = options.initialEstimateMs;
  }

  /** The moving average of recently reported durations, in milliseconds. */
  get averageMs(): number {
    return this.average;
  }

  /** Computations running and waiting. */
  get pending(): number {
    return this.running + this.waiting.account.length + this.waiting['sign-in'].length;
  }

  /** How long new work of this priority would wait before it starts. */
  estimatedWaitMs(priority: HashPriority): number {
    const ahead =
      this.running +
      this.waiting.account.length +
      (priority === 'sign-in' ? this.waiting['sign-in'].length : 0);
    const { concurrency } = this.options;
    return (Math.max(0, ahead - concurrency + 1) * this.average) / concurrency;
  }

  async run<T>(priority: HashPriority, work: () => Promise<Timed<T>>): Promise<T> {
    if (priority === 'sign-in') {
      const wait = this.estimatedWaitMs('sign-in');
      if (wait > this.options.maxSignInWaitMs) throw new HashingBusyError(wait);
    }
    if (this.running >= this.options.concurrency) {
      await new Promise<void>((resolve) => this.waiting[priority].push(resolve));
    } else this.running += 1;
    try {
      const { value, ms } = await work();
      this.average += SMOOTHING * (ms - this.average);
      return value;
    } finally {
      // The slot passes straight to the next in line, so `running` stays counted.
      const next = this.waiting.account.shift() ?? this.waiting['sign-in'].shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
