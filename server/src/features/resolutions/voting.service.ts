import { randomUUID } from 'node:crypto';
import { MOTION_MESSAGES } from '@gremienportal/contracts/resolutions';
import type { Choice } from '@gremienportal/contracts/tally';
import type { MemberFunction } from '@gremienportal/contracts/committees';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, forbidden, invalidField, notFound } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeMotion, mayManageMotion } from '../../policies/motions.policy.ts';
import type { Principal } from '../../policies/principal.ts';
import { auditOn, recordAudit, type AuditEntry } from '../audit/audit-log.service.ts';
import { objectionStoppedMail } from './motions.mails.ts';
import * as repo from './motions.repository.ts';

/*
 * The one door for a vote (decision 190): every ballot, objection and conflict declaration runs in
 * a transaction that locks the motion row, then the member's electorate row (always in this
 * order, so concurrent doors queue up instead of deadlocking), checks state and deadline on the
 * locked rows and writes.
 */

export type HandCounts = { ja: number; nein: number; enthaltung: number };

const byName = (a: string, b: string) => a.localeCompare(b, 'de');

export const conflict = (message: string) => new AppError('conflict', message);

export interface Access {
  functions: MemberFunction[];
  elector: repo.ElectorRow | undefined;
}

/** Helpers both halves of the motions service share. */
export function motionsBase(ctx: AppContext) {
  const db = () => ctx.db.kysely;
  const now = () => ctx.clock.now().toISOString();

  async function accessOf(executor: repo.Executor, principal: Principal, motion: repo.MotionRow) {
    const functions = await repo.activeFunctions(executor, motion.committee_id, principal.id);
    const elector = await repo.findElector(executor, motion.id, principal.id);
    return { functions, elector } satisfies Access;
  }

  /** The motion if the principal may see it (404 otherwise), with the principal's access. */
  async function visible(executor: repo.Executor, principal: Principal, motion: repo.MotionRow | undefined) {
    if (!motion) throw notFound();
    const access = await accessOf(executor, principal, motion);
    if (!canSeeMotion(principal, access.functions, access.elector !== undefined)) throw notFound();
    return { motion, ...access };
  }

  const audit = (
    trx: Transaction<Database>,
    actor: Actor | null,
    motion: repo.MotionRow,
    entry: Omit<AuditEntry, 'objectType'>,
  ) =>
    recordAudit(trx, ctx.clock, {
      ...(actor ? auditOn(actor, 'motion', motion.id, motion.title) : {}),
      objectType: 'motion',
      objectId: motion.id,
      objectLabel: motion.title,
      ...entry,
    });

  /** State `abstimmung` and before the deadline, on the locked row; else 409. */
  function assertRunning(motion: repo.MotionRow) {
    if (motion.state !== 'abstimmung') throw conflict(MOTION_MESSAGES.notOpen);
    if (motion.deadline !== null && motion.deadline <= now()) throw conflict(MOTION_MESSAGES.deadlinePassed);
  }

  async function committeeOf(executor: repo.Executor, motion: repo.MotionRow) {
    const committee = await repo.committeeBrief(executor, motion.committee_id);
    if (!committee) throw notFound();
    return { id: committee.id, name: committee.name, rules: repo.parseRules(committee.rules) };
  }

  /** A transaction with the motion row locked and the principal's access read inside it. */
  function locked<T>(
    actor: Actor,
    id: number,
    work: (trx: Transaction<Database>, found: Awaited<ReturnType<typeof visible>>) => Promise<T>,
  ) {
    return db()
      .transaction()
      .execute(async (trx) => {
        const motion = await repo.lockMotion(trx, ctx.db.dialect, id);
        const found = await visible(trx, actor.principal, motion);
        return work(trx, found);
      });
  }

  return { db, now, accessOf, visible, audit, assertRunning, committeeOf, locked };
}

export function votingService(ctx: AppContext, base: ReturnType<typeof motionsBase>) {
  const { now, audit, assertRunning, committeeOf, locked } = base;

  /** The voter's locked electorate row: 403 if they are no elector or have a conflict. */
  async function lockVoter(trx: Transaction<Database>, motionId: number, userId: number) {
    const elector = await repo.lockElector(trx, ctx.db.dialect, motionId, userId);
    if (!elector) throw forbidden(MOTION_MESSAGES.notElector);
    if (elector.conflicted === 1) throw forbidden(MOTION_MESSAGES.conflicted);
    return elector;
  }

  return {
    /**
     * A vote. Geheim: a ballot with a random id and `voted = 1`, in one transaction, no audit entry
     * now (the participation is recorded at closing); a second is 409. Offen/namentlich: the vote
     * is stored per member and may be changed where `changes_allowed`.
     */
    vote(actor: Actor, id: number, choice: Choice): Promise<void> {
      return locked(actor, id, async (trx, { motion }) => {
        assertRunning(motion);
        const elector = await lockVoter(trx, motion.id, actor.principal.id);
        if (motion.mode === 'geheim') {
          if (elector.voted === 1) throw conflict(MOTION_MESSAGES.alreadyVotedSecret);
          await repo.insertBallot(trx, randomUUID(), motion.id, choice);
          await repo.updateElector(trx, motion.id, elector.user_id, { voted: 1 });
          return;
        }
        const existing = await repo.findVote(trx, motion.id, elector.user_id);
        if (existing && motion.changes_allowed !== 1) throw conflict(MOTION_MESSAGES.changeNotAllowed);
        await repo.upsertVote(trx, motion.id, elector.user_id, choice, now());
        if (elector.voted !== 1) await repo.updateElector(trx, motion.id, elector.user_id, { voted: 1 });
        await audit(trx, actor, motion, {
          action: 'motion.voted',
          details: existing ? { changed: true } : {},
        });
      });
    },

    /**
     * An objection to an Umlaufverfahren. With the committee's `circular_objection_stops` it ends
     * the procedure at once: the conditional update makes it happen once, with one set of mails.
     */
    object(actor: Actor, id: number, reason = ''): Promise<{ stopped: boolean }> {
      return locked(actor, id, async (trx, { motion }) => {
        if (motion.procedure !== 'umlauf') throw conflict(MOTION_MESSAGES.objectionOnlyUmlauf);
        assertRunning(motion);
        const elector = await lockVoter(trx, motion.id, actor.principal.id);
        if (elector.objected_at !== null) throw conflict(MOTION_MESSAGES.alreadyObjected);
        const at = now();
        await repo.updateElector(trx, motion.id, elector.user_id, {
          objected_at: at,
          objection_reason: reason === '' ? null : reason,
        });
        await audit(trx, actor, motion, { action: 'motion.objected', details: reason ? { reason } : {} });
        const committee = await committeeOf(trx, motion);
        if (!committee.rules.circular_objection_stops) return { stopped: false };
        const stopped = await repo.claimState(trx, motion.id, 'abstimmung', {
          state: 'widersprochen',
          closed_at: at,
          updated_at: at,
        });
        if (!stopped) return { stopped: false };
        await audit(trx, actor, motion, { action: 'motion.objection_stopped' });
        const facts = { id: motion.id, title: motion.title, committeeName: committee.name };
        const electors = await repo.electorate(trx, motion.id);
        await enqueueMail(
          trx,
          ctx.clock,
          electors.map((e) => objectionStoppedMail(e, facts, ctx.config.PUBLIC_URL)),
        );
        return { stopped: true };
      });
    },

    /**
     * A conflict of interest: the elector's own, or another's by the Vorsitz or an admin, while the
     * vote runs. An existing open vote is removed; in a secret vote only before the ballot (it
     * cannot be found again).
     */
    declareConflict(actor: Actor, id: number, userId?: number): Promise<void> {
      return locked(actor, id, async (trx, { motion, functions }) => {
        const target = userId ?? actor.principal.id;
        const self = target === actor.principal.id;
        if (!self && !mayManageMotion(actor.principal, functions)) throw forbidden(MOTION_MESSAGES.onlyChair);
        assertRunning(motion);
        const elector = await repo.lockElector(trx, ctx.db.dialect, motion.id, target);
        if (!elector) {
          throw self
            ? forbidden(MOTION_MESSAGES.notElector)
            : invalidField('user_id', MOTION_MESSAGES.notElector);
        }
        if (elector.conflicted === 1) return;
        if (motion.mode === 'geheim' && elector.voted === 1) {
          throw conflict(MOTION_MESSAGES.conflictAfterSecretVote);
        }
        await repo.deleteVote(trx, motion.id, target);
        await repo.updateElector(trx, motion.id, target, { conflicted: 1, voted: 0 });
        await audit(trx, actor, motion, {
          action: 'motion.conflict_declared',
          details: { member: elector.holder_name, self },
        });
      });
    },

    /** Hand counts of a meeting (replacing earlier ones): not geheim, not more than may still vote. */
    async handCount(actor: Actor, id: number, counts: HandCounts): Promise<void> {
      return locked(actor, id, async (trx, { motion, functions }) => {
        if (!mayManageMotion(actor.principal, functions)) throw forbidden(MOTION_MESSAGES.onlyChair);
        if (motion.procedure !== 'sitzung') throw conflict(MOTION_MESSAGES.handCountOnlySitzung);
        if (motion.mode === 'geheim') throw conflict(MOTION_MESSAGES.handCountSecret);
        assertRunning(motion);
        const electors = await repo.electorate(trx, motion.id);
        const online = await repo.onlineCounts(trx, motion.id, false);
        const may =
          electors.filter((e) => e.conflicted === 0).length - (online.ja + online.nein + online.enthaltung);
        if (counts.ja + counts.nein + counts.enthaltung > may)
          throw invalidField('ja', MOTION_MESSAGES.tooManyVotes);
        await repo.updateMotion(trx, motion.id, {
          hand_ja: counts.ja,
          hand_nein: counts.nein,
          hand_enthaltung: counts.enthaltung,
          updated_at: now(),
        });
        await audit(trx, actor, motion, { action: 'motion.hand_counted', details: { ...counts } });
      });
    },

    async close(actor: Actor, id: number): Promise<void> {
      return locked(actor, id, async (trx, { motion, functions }) => {
        if (!mayManageMotion(actor.principal, functions)) throw forbidden(MOTION_MESSAGES.onlyChair);
        const at = now();
        if (
          !(await repo.claimState(trx, motion.id, 'abstimmung', {
            state: 'geschlossen',
            closed_at: at,
            updated_at: at,
          }))
        ) {
          throw conflict(MOTION_MESSAGES.notOpen);
        }
        await recordClosing(base, trx, actor, motion);
      });
    },

    async withdraw(actor: Actor, id: number): Promise<void> {
      return locked(actor, id, async (trx, { motion, functions }) => {
        if (!mayManageMotion(actor.principal, functions)) throw forbidden(MOTION_MESSAGES.onlyChair);
        if (motion.state !== 'entwurf' && motion.state !== 'abstimmung')
          throw conflict(MOTION_MESSAGES.notWithdrawable);
        const at = now();
        if (
          !(await repo.claimState(trx, motion.id, motion.state, {
            state: 'zurueckgezogen',
            closed_at: at,
            updated_at: at,
          }))
        ) {
          throw conflict(MOTION_MESSAGES.notWithdrawable);
        }
        await audit(trx, actor, motion, { action: 'motion.withdrawn' });
      });
    },
  };
}

/** One closing's audit entries; geheim: one entry naming who took part, in name order, now. */
async function recordClosing(
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
