import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Clock } from '../clock.ts';
import type { MailTransport } from './transport.ts';

const LEASE_MS = 2 * 60_000;
const MAX_ATTEMPTS = 8;
/** Back-off after the n-th failure: 30 s, 1 min, 2 min, … capped at 1 h. */
const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);

/** Work that queues mails (a forgot-password request) and runs in the sender's loop before it sends. */
export interface MailJob {
  name: string;
  /** Handles what is due, exactly once across instances (the job leases its rows itself). */
  run(): Promise<unknown>;
}

export interface MailSenderOptions {
  db: Db;
  clock: Clock;
  transport: MailTransport;
  from: string;
  logger: Logger;
  intervalMs?: number;
  /** How often a lease is extended while its mail is being sent (default a quarter lease). */
  leaseRenewMs?: number;
  /** Run at the start of every round, so the mails they queue go out in the same round. */
  jobs?: readonly MailJob[];
}

/**
 * Background sender for the outbox. Each mail is leased (`locked_until`) by one sender with a
 * conditional update before sending, so several instances never send the same mail twice. The
 * lease is extended while the SMTP conversation lasts (a stalled server may take minutes), so
 * it only runs out when its instance died; then another instance takes the mail over.
 */
export class MailSender {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly options: MailSenderOptions) {}

  start(): void {
    const interval = this.options.intervalMs ?? 2_000;
    const tick = () => {
      void this.flush()
        .catch((error: unknown) => {
          // A failing database (a full disk, a lost connection) must not end the process.
          this.options.logger.error({ err: error }, 'E-Mail-Versand unterbrochen; nächster Versuch folgt');
        })
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, interval);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** Runs the jobs, then sends every due mail once; returns how many were sent. Safe to call concurrently. */
  flush(): Promise<number> {
    this.running ??= this.runJobs()
      .then(() => this.sendDue())
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Runs every job once; a failing job is logged and does not hold up the others or the mails. */
  async runJobs(): Promise<void> {
    for (const job of this.options.jobs ?? []) {
      try {
        await job.run();
      } catch (error) {
        this.options.logger.error({ err: error, job: job.name }, 'Hintergrundaufgabe fehlgeschlagen');
      }
    }
  }

  private async sendDue(): Promise<number> {
    const { db, clock, transport, from, logger } = this.options;
    const k = db.kysely;
    let sent = 0;
    for (;;) {
      const now = clock.now().toISOString();
      const due = await k
        .selectFrom('outbox')
        .selectAll()
        .where('sent_at', 'is', null)
        .where('attempts', '<', MAX_ATTEMPTS)
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('id')
        .limit(20)
        .execute();
      if (due.length === 0) return sent;
      for (const mail of due) {
        const leaseUntil = new Date(clock.now().getTime() + LEASE_MS).toISOString();
        const lease = await k
          .updateTable('outbox')
          .set({ locked_until: leaseUntil })
          .where('id', '=', mail.id)
          .where('sent_at', 'is', null)
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
          .executeTakeFirst();
        if (Number(lease.numUpdatedRows) !== 1) continue;
        const renewal = this.keepLease(mail.id, leaseUntil);
        try {
          // What the mail reports (a digest marked as sent, a new document) is on the disk first.
          await db.durability.untilDurable();
          await transport.send({
            id: mail.id,
            from,
            to: mail.to_address,
            subject: mail.subject,
            text: mail.text_body,
            ...(mail.html_body ? { html: mail.html_body } : {}),
            ...(mail.list_unsubscribe ? { listUnsubscribe: mail.list_unsubscribe } : {}),
            ...(mail.calendar && mail.calendar_method
              ? { calendar: { method: mail.calendar_method, content: mail.calendar } }
              : {}),
          });
          await k
            .updateTable('outbox')
            .set({ sent_at: clock.now().toISOString(), locked_until: null, attempts: mail.attempts + 1 })
            .where('id', '=', mail.id)
            .execute();
          sent += 1;
        } catch (error) {
          const attempts = mail.attempts + 1;
          logger.warn({ mailId: mail.id, attempts, err: error }, 'E-Mail-Versand fehlgeschlagen');
          await k
            .updateTable('outbox')
            .set({
              attempts,
              locked_until: null,
              last_error: String(error).slice(0, 500),
              next_attempt_at: new Date(clock.now().getTime() + backoffMs(attempts)).toISOString(),
            })
            .where('id', '=', mail.id)
            .execute();
        } finally {
          await renewal.stop();
        }
      }
    }
  }

  /** Extends the lease on `id` every `leaseRenewMs` until stopped, as long as it is still ours. */
  private keepLease(id: number, firstLease: string): { stop(): Promise<void> } {
    const { db, clock, logger } = this.options;
    let current = firstLease;
    let pending: Promise<void> = Promise.resolve();
    const renew = async () => {
      const next = new Date(clock.now().getTime() + LEASE_MS).toISOString();
      try {
        const renewed = await db.kysely
          .updateTable('outbox')
          .set({ locked_until: next })
          .where('id', '=', id)
          .where('sent_at', 'is', null)
          .where('locked_until', '=', current)
          .executeTakeFirst();
        if (Number(renewed.numUpdatedRows) === 1) current = next;
      } catch (error) {
        logger.warn({ mailId: id, err: error }, 'E-Mail-Reservierung konnte nicht verlängert werden');
      }
    };
    const timer = setInterval(
      () => {
        pending = pending.then(renew);
      },
      this.options.leaseRenewMs ?? LEASE_MS / 4,
    );
    timer.unref();
    return {
      stop: async () => {
        clearInterval(timer);
        await pending;
      },
    };
  }
}
