import type { AppContext } from '../../context.ts';
import { principalLabel } from '../../plugins/auth.ts';
import type { Principal } from '../../policies/principal.ts';
import { countRepeatedAudit, recordAudit } from '../audit/audit-log.service.ts';

const FLUSH_MS = 60_000;

/**
 * Searches are audited as a count per member and day, never with the terms (they may be personal
 * data; decision 128). Counted in memory and written once a minute and at shutdown, so a search
 * costs no write; a crash loses at most a minute's count.
 */
export class SearchCounter {
  private pending = new Map<number, { label: string; count: number }>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ctx: AppContext) {}

  count(principal: Principal): void {
    const entry = this.pending.get(principal.id);
    if (entry) entry.count += 1;
    else this.pending.set(principal.id, { label: principalLabel(principal), count: 1 });
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Adds the counts to today's entry of each member (UTC day), or starts it. */
  async flush(): Promise<void> {
    const counts = this.pending;
    this.pending = new Map();
    const since = `${this.ctx.clock.now().toISOString().slice(0, 10)}T00:00:00.000Z`;
    for (const [userId, { label, count }] of counts) {
      try {
        const entry = { action: 'search.performed', objectType: 'user', objectId: userId, ip: null } as const;
        const added = await countRepeatedAudit(this.ctx.db, entry, since, ({ details }) => ({
          count: (typeof details?.count === 'number' ? details.count : 1) + count,
        }));
        if (!added) {
          await recordAudit(this.ctx.db.kysely, this.ctx.clock, {
            ...entry,
            actor: { id: userId, label },
            objectLabel: label,
            details: { count },
          });
        }
      } catch (error) {
        this.ctx.logger.warn({ err: error }, 'Suchzähler nicht gespeichert');
      }
    }
  }
}
