import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import { reminderMail } from './motions.mails.ts';
import * as repo from './motions.repository.ts';
import { motionsBase } from './motions.base.ts';

/* The clock's part of a vote (decision 190): closing at the deadline, reminders, the closing's audit. */

const byName = (a: string, b: string) => a.localeCompare(b, 'de');

/** One closing's audit entries; geheim: one entry naming who took part, in name order, now. */
export async function recordClosing(
  base: ReturnType<typeof motionsBase>,
  trx: Transaction<Database>,
  actor: Actor | null,
  motion: repo.MotionRow,
) {
  await base.audit(trx, actor, motion, {
    action: 'motion.closed',
    details: actor ? {} : { reason: 'Frist abgelaufen' },
  });
  if (motion.mode !== 'geheim') return;
  const electors = await repo.electorate(trx, motion.id);
  const participants = electors
    .filter((e) => e.voted === 1)
    .map((e) => e.holder_name)
    .sort(byName);
  await base.audit(trx, actor, motion, { action: 'motion.secret_participation', details: { participants } });
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Reminder mails to the electors claimed since `since`; the number sent. */
export async function sendReminders(
  ctx: AppContext,
  trx: repo.Executor,
  motion: repo.MotionRow,
  since: string,
  at: string,
): Promise<number> {
  const claimed = new Set(await repo.claimReminders(trx, motion.id, since, at));
  if (claimed.size === 0) return 0;
  const committee = await repo.committeeBrief(trx, motion.committee_id);
  const facts = { id: motion.id, title: motion.title, committeeName: committee?.name ?? '' };
  const electors = (await repo.electorate(trx, motion.id)).filter((e) => claimed.has(e.user_id));
  await enqueueMail(
    trx,
    ctx.clock,
    electors.map((e) => reminderMail(e, facts, motion.deadline!, ctx.config.PUBLIC_URL)),
  );
  return claimed.size;
}

/**
 * The minute job's reminder: 24 hours before an Umlaufverfahren's deadline, the electors who did
 * neither vote nor object get one mail (claimed per member, once across instances; a reminder the
 * Vorsitz sent within those 24 hours counts as it).
 */
export async function remindDue(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const until = new Date(now.getTime() + DAY_MS).toISOString();
  let sent = 0;
  for (const motion of await repo.umlaufDueBefore(ctx.db.kysely, now.toISOString(), until)) {
    const since = new Date(new Date(motion.deadline!).getTime() - DAY_MS).toISOString();
    sent += await ctx.db.kysely
      .transaction()
      .execute((trx) => sendReminders(ctx, trx, motion, since, now.toISOString()));
  }
  return sent;
}

/** The minute job's part: Umlaufverfahren past their deadline close, each once across instances. */
export async function closeDue(ctx: AppContext): Promise<number> {
  const base = motionsBase(ctx);
  const at = ctx.clock.now().toISOString();
  let closed = 0;
  for (const motion of await repo.dueUmlauf(ctx.db.kysely, at)) {
    const done = await ctx.db.kysely.transaction().execute(async (trx) => {
      if (
        !(await repo.claimState(trx, motion.id, 'abstimmung', {
          state: 'geschlossen',
          closed_at: at,
          updated_at: at,
        }))
      ) {
        return false;
      }
      await recordClosing(base, trx, null, motion);
      return true;
    });
    if (done) closed += 1;
  }
  return closed;
}
