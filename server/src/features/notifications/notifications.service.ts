import type { Transaction } from 'kysely';
import {
  NOTIFICATION_MESSAGES,
  type NotificationFrequency,
  type NotificationSettings,
} from '@gremienportal/contracts/notifications';
import type { AppContext } from '../../context.ts';
import { DAY } from '../../clock.ts';
import { MinuteJob } from '../../maintenance/minute-job.ts';
import type { DailyTask } from '../../maintenance/daily-job.ts';
import type { Database } from '../../db/schema.ts';
import { enqueueMail, type OutgoingMail } from '../../mail/outbox.ts';
import type { Principal } from '../../policies/principal.ts';
import { canSeeEvent } from '../../policies/events.policy.ts';
import { canSeeFile } from '../../policies/files.policy.ts';
import { compareTitles, treesByViewer } from '../../policies/folders.policy.ts';
import { filesByFolder } from './files-by-folder.ts';
import { viewerOfRoles } from '../../policies/principal.ts';
import { recordOwnAccountAudit } from '../audit/audit-log.service.ts';
import { loadFolders } from '../../db/document-records.ts';
import { duePeriods, type Cadence, type DigestPeriod } from './digest-periods.ts';
import { digestMail, type DigestEventItem, type DigestFolder } from './digest.mails.ts';
import * as repo from './notifications.repository.ts';
import type { NotificationAction, NotificationKind, StoredSettings } from './notifications.repository.ts';

export type { NotificationAction, NotificationKind };

/** What the digests need of the portal: the server's context, or the CLI's for `digests`. */
export type DigestContext = Pick<AppContext, 'db' | 'clock' | 'config'> & {
  logger: { error(details: object, message: string): void };
};

const FIELD_OF = { file: 'notify_files', event: 'notify_events' } as const;

const toSettings = (stored: StoredSettings): NotificationSettings => ({
  files: stored.notify_files,
  events: stored.notify_events,
});

/** The member's own choices on `/account`: how often they are told about documents and events. */
export function notificationSettingsService(ctx: AppContext) {
  const k = ctx.db.kysely;
  return {
    async get(principal: Principal): Promise<NotificationSettings> {
      return toSettings((await repo.readSettings(k, principal.id))!);
    },

    /** Saves both choices; a change is audited, and "nie" drops what was waiting for a digest. */
    async update(
      principal: Principal,
      next: NotificationSettings,
      client: { ip: string },
    ): Promise<{ message: string; data: NotificationSettings }> {
      await k.transaction().execute(async (trx) => {
        const before = toSettings((await repo.readSettings(trx, principal.id))!);
        const changed = (['files', 'events'] as const).filter((key) => before[key] !== next[key]);
        if (changed.length === 0) return;
        await repo.writeSettings(
          trx,
          principal.id,
          { notify_files: next.files, notify_events: next.events },
          ctx.clock.now().toISOString(),
        );
        if (next.files === 'nie') await repo.dropQueued(trx, principal.id, 'file');
        if (next.events === 'nie') await repo.dropQueued(trx, principal.id, 'event');
        await recordOwnAccountAudit(trx, ctx.clock, principal, {
          action: 'account.notifications_updated',
          details: Object.fromEntries(changed.map((key) => [key, next[key]])),
          ip: client.ip,
        });
      });
      return { message: NOTIFICATION_MESSAGES.saved, data: next };
    },
  };
}

/**
 * "Benachrichtigung an" decides who is told about a new or changed document or event; each
 * recipient's own setting decides how (decision 131): "sofort" gets `mailFor` now, "täglich" and
 * "wöchentlich" a row for their digest, "nie" nothing. In the caller's transaction, so the mails
 * and rows exist exactly when the change does. With `holdImmediate` the "sofort" members are
 * handed over instead of mailed: a batch of uploads tells them once for all its documents
 * (decision 182).
 */
export async function deliverNotifications<R extends { id: number }>(
  ctx: Pick<AppContext, 'clock'>,
  trx: Transaction<Database>,
  item: { kind: NotificationKind; objectId: number; action: NotificationAction },
  recipients: readonly R[],
  mailFor: (recipient: R) => OutgoingMail,
  holdImmediate?: (recipients: readonly R[]) => Promise<void>,
): Promise<void> {
  if (recipients.length === 0) return;
  const settings = await repo.settingsOf(
    trx,
    recipients.map((recipient) => recipient.id),
  );
  const frequency = (recipient: R): NotificationFrequency =>
    settings.get(recipient.id)?.[FIELD_OF[item.kind]] ?? 'sofort';
  const immediate = recipients.filter((recipient) => frequency(recipient) === 'sofort');
  if (holdImmediate) await holdImmediate(immediate);
  else await enqueueMail(trx, ctx.clock, immediate.map(mailFor));
  await repo.enqueueItems(
    trx,
    recipients
      .filter((recipient) => ['taeglich', 'woechentlich'].includes(frequency(recipient)))
      .map((recipient) => ({
        user_id: recipient.id,
        kind: item.kind,
        object_id: item.objectId,
        action: item.action,
      })),
    ctx.clock.now().toISOString(),
  );
}

/** The kinds a digest of this cadence delivers for the member, and those it only empties ("nie"). */
function kindsFor(member: StoredSettings, cadence: Cadence) {
  const deliver: NotificationKind[] = [];
  const drop: NotificationKind[] = [];
  for (const kind of ['file', 'event'] as const) {
    const frequency = member[FIELD_OF[kind]];
    const weekly = frequency === 'woechentlich';
    if (weekly !== (cadence === 'weekly')) continue;
    // "sofort" chosen after something was queued: it comes with the next daily digest.
    (frequency === 'nie' ? drop : deliver).push(kind);
  }
  return { deliver, drop };
}

/** Each queued object once; a document both added and replaced within the period counts as new. */
function latestActions(
  rows: readonly { kind: NotificationKind; object_id: number; action: NotificationAction }[],
) {
  const byKind = { file: new Map<number, boolean>(), event: new Map<number, boolean>() };
  for (const row of rows) {
    const updated = row.action === 'updated' && (byKind[row.kind].get(row.object_id) ?? true);
    byKind[row.kind].set(row.object_id, updated);
  }
  return byKind;
}

type Folders = Awaited<ReturnType<typeof loadFolders>>;

/**
 * One member's digest of one period, in one transaction: the claim on (member, cadence, period),
 * the removal of what it covers and the mail. Another instance that builds the same digest at the
 * same time, or any later run, finds the claim and sends nothing. Returns whether a mail went out.
 */
async function sendDigest(
  ctx: DigestContext,
  userId: number,
  due: DigestPeriod,
  folders: Folders,
): Promise<boolean> {
  const treeOf = treesByViewer(folders);
  return ctx.db.kysely.transaction().execute(async (trx) => {
    const now = ctx.clock.now().toISOString();
    const digestId = await repo.claimDigest(
      trx,
      { user_id: userId, cadence: due.cadence, period: due.period },
      now,
    );
    if (digestId === undefined) return false;
    const member = await repo.digestMember(trx, userId);
    if (!member) return false;
    const { deliver, drop } = kindsFor(member, due.cadence);
    const cutoff = due.cutoff.toISOString();
    await repo.takeQueued(trx, userId, drop, cutoff);
    const actions = latestActions(await repo.takeQueued(trx, userId, deliver, cutoff));

    // Who may see what is asked now: a document deleted, moved or hidden meanwhile is left out.
    const viewer = viewerOfRoles(member.roles);
    const tree = treeOf(viewer);
    const files = (await repo.filesByIds(trx, [...actions.file.keys()]))
      .filter((file) => canSeeFile(tree, file))
      .sort(compareTitles);
    const events = (await repo.eventsByIds(trx, [...actions.event.keys()]))
      .filter((event) => canSeeEvent(viewer, event))
      .sort((a, b) => a.start_at.localeCompare(b.start_at) || a.id - b.id);
    const folders: DigestFolder[] = filesByFolder(files, tree, (file) => ({
      id: file.id,
      title: file.title,
      format: file.format,
      sizeBytes: file.size_bytes,
      updated: actions.file.get(file.id)!,
    }));
    const eventItems: DigestEventItem[] = events.map((event) => ({
      id: event.id,
      title: event.title,
      start: event.start_at,
      location: event.location,
      updated: actions.event.get(event.id)!,
    }));
    const items = files.length + events.length;
    await repo.setDigestItems(trx, digestId, items);
    if (items === 0) return false;
    await enqueueMail(
      trx,
      ctx.clock,
      digestMail(member, due.cadence, folders, eventItems, ctx.config.PUBLIC_URL),
    );
    return true;
  });
}

/**
 * Sends every digest due as of `at` (decision 131): daily ones from 07:00 Europe/Berlin for what was
 * queued before that morning, weekly ones from Monday 07:00. Mails go to the outbox, stamped with
 * the context's clock, so the running server's sender delivers them whatever `at` says. Returns
 * how many digests were mailed.
 */
export async function sendDueDigests(ctx: DigestContext, at: Date = ctx.clock.now()): Promise<number> {
  const periods = duePeriods(at);
  let folders: Folders | undefined;
  let sent = 0;
  for (const due of [periods.daily, periods.weekly]) {
    const members = await repo.membersDue(ctx.db.kysely, due.cadence, due.period, due.cutoff.toISOString());
    for (const userId of members) {
      folders ??= await loadFolders(ctx.db.kysely);
      try {
        if (await sendDigest(ctx, userId, due, folders)) sent += 1;
      } catch (error) {
        // Nothing was claimed: the next run tries this member again.
        ctx.logger.error({ err: error, userId, cadence: due.cadence }, 'Zusammenfassung nicht versandt');
      }
    }
  }
  return sent;
}

/** How long a digest's claim is kept: far beyond the week in which it could be built again. */
const DIGEST_CLAIM_DAYS = 35;

/** The daily maintenance's part: claims of digests long past are removed. */
export const digestTasks: readonly DailyTask[] = [
  {
    name: 'digest-claims',
    run: async (ctx) => {
      const before = new Date(ctx.clock.now().getTime() - DIGEST_CLAIM_DAYS * DAY).toISOString();
      const removed = await repo.deleteDigestsBefore(ctx.db.kysely, before);
      if (removed > 0) ctx.logger.info({ removed }, 'Alte Zusammenfassungs-Vermerke entfernt');
    },
  },
];

/**
 * Looks for due digests every `intervalMs` (a minute) on the injected clock. Cheap when nothing is
 * due: one indexed query per cadence. `run()` answers how many digests went out.
 */
export class DigestJob extends MinuteJob<number> {
  constructor(ctx: DigestContext, intervalMs = 60_000) {
    super('digests', ctx.logger, () => sendDueDigests(ctx), intervalMs);
  }
}
