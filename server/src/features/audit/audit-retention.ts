import { isIP } from 'node:net';
import { AUDIT_IP_SHORTEN_AFTER_DAYS } from '@gremienportal/contracts/audit';
import type { AppContext } from '../../context.ts';
import { DAY } from '../../clock.ts';
import type { DailyTask, MaintenanceContext } from '../../maintenance/daily-job.ts';
import { deleteSpentDeliveryMarks } from './audit-log.service.ts';

export type RetentionContext = MaintenanceContext;

export interface RetentionResult {
  /** Entries older than AUDIT_RETENTION_DAYS, deleted. */
  deleted: number;
  /** Client addresses older than 30 days, shortened (or removed when unreadable). */
  shortened: number;
}

const BATCH = 500;

type Executor = AppContext['db']['kysely'];

async function deleteEntriesBefore(db: Executor, beforeIso: string): Promise<number> {
  const result = await db.deleteFrom('audit_log').where('at', '<', beforeIso).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Entries before `beforeIso` whose address is not shortened yet. Shortened addresses are fixed
 * points of the shortening (IPv4 ends in `.0` and has no colon, IPv6 ends in `/48`), so a
 * shortened row never comes back.
 */
async function addressesToShorten(
  db: Executor,
  beforeIso: string,
  afterId: number,
): Promise<{ id: number; ip: string }[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select(['id', 'ip'])
    .where('at', '<', beforeIso)
    .where('id', '>', afterId)
    .where('ip', 'is not', null)
    .where('ip', 'not like', '%/48')
    .where((eb) => eb.not(eb.and([eb('ip', 'like', '%.0'), eb('ip', 'not like', '%:%')])))
    .orderBy('id')
    .limit(BATCH)
    .execute();
  return rows.map((row) => ({ id: row.id, ip: row.ip! }));
}

async function setAddress(db: Executor, ids: number[], ip: string | null): Promise<void> {
  await db.updateTable('audit_log').set({ ip }).where('id', 'in', ids).execute();
}

/** The eight 16-bit groups of an IPv6 address, or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const tail: number[] = [];
  const embedded = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (embedded) {
    const octets = embedded[2]!.split('.').map(Number);
    tail.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
    text = embedded[1]!.endsWith('::') ? embedded[1]! : embedded[1]!.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest, ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : null;
}

/**
 * The shortened form of a client address (decision 062): IPv4 with the last octet zeroed
 * (`203.0.113.0`), IPv6 cut to its first 48 bits (`2001:db8:1::/48`), an IPv4-mapped IPv6 address
 * as IPv4. Shortened forms map to themselves. Anything unreadable gives null (it is dropped).
 */
export function shortenAddress(address: string): string | null {
  const text = address.trim().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  const candidate = mapped ? mapped[1]! : text;
  if (isIP(candidate) === 4) return candidate.replace(/\.\d+$/, '.0');
  const prefix = /^(.*)\/48$/.exec(candidate);
  const v6 = prefix ? prefix[1]! : candidate;
  if (isIP(v6) !== 6) return null;
  const groups = ipv6Groups(v6);
  if (!groups) return null;
  const kept = groups.slice(0, 3);
  while (kept.length > 0 && kept.at(-1) === 0) kept.pop();
  return `${kept.map((group) => group.toString(16)).join(':')}::/48`;
}

/**
 * Deletes entries older than AUDIT_RETENTION_DAYS and shortens the client addresses of entries
 * older than 30 days. Idempotent, so several instances may run it at the same time.
 */
export async function runAuditRetention(ctx: RetentionContext): Promise<RetentionResult> {
  const db = ctx.db.kysely;
  const now = ctx.clock.now().getTime();
  const deleteBefore = new Date(now - ctx.config.AUDIT_RETENTION_DAYS * DAY).toISOString();
  const shortenBefore = new Date(now - AUDIT_IP_SHORTEN_AFTER_DAYS * DAY).toISOString();

  const deleted = await deleteEntriesBefore(db, deleteBefore);

  let shortened = 0;
  let afterId = 0;
  for (;;) {
    const rows = await addressesToShorten(db, shortenBefore, afterId);
    if (rows.length === 0) break;
    const idsByAddress = new Map<string | null, number[]>();
    for (const row of rows) {
      const short = shortenAddress(row.ip);
      if (short === row.ip) continue;
      const ids = idsByAddress.get(short) ?? [];
      ids.push(row.id);
      idsByAddress.set(short, ids);
      shortened += 1;
    }
    for (const [address, ids] of idsByAddress) await setAddress(db, ids, address);
    afterId = rows.at(-1)!.id;
  }
  return { deleted, shortened };
}

/** The audit log's part of the daily maintenance. */
export const auditRetentionTasks: readonly DailyTask[] = [
  {
    name: 'Aktivitäten',
    async run(ctx) {
      const result = await runAuditRetention(ctx);
      if (result.deleted > 0 || result.shortened > 0) ctx.logger.info(result, 'Aktivitäten bereinigt');
    },
  },
  {
    // Download marks hold back entries for ten minutes only (decision 116).
    name: 'Download-Markierungen',
    run: async (ctx) => void (await deleteSpentDeliveryMarks(ctx.db.kysely, ctx.clock)),
  },
];
