import { randomUUID } from 'node:crypto';
import { MOTION_MESSAGES } from '@gremienportal/contracts/resolutions';
import type { Choice } from '@gremienportal/contracts/tally';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { forbidden, invalidField } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import { mayManageMotion } from '../../policies/motions.policy.ts';
import { objectionStoppedMail } from './motions.mails.ts';
import { berlinToday } from '../committees/membership-states.ts';
import * as repo from './motions.repository.ts';

import { conflict, type HandCounts, type motionsBase } from './motions.base.ts';
import { recordClosing, sendReminders, DAY_MS } from './vote-deadlines.ts';

export { conflict, motionsBase, type HandCounts } from './motions.base.ts';
export { closeDue, remindDue } from './vote-deadlines.ts';

/*
 * The one door for a vote (decision 190): every ballot, objection and conflict declaration runs in
 * a transaction that locks the motion row, then the member's electorate row (always in this
 * order, so concurrent doors queue up instead of deadlocking), checks state and deadline on the
 * locked rows and writes.
 */

export function votingService(ctx: AppContext, base: ReturnType<typeof motionsBase>) {
  const { now, audit, assertRunning, committeeOf, locked } = base;

  /** The voter's locked electorate row: 403 if they are no elector or have a conflict. */
  async function lockVoter(trx: Transaction<Database>, motionId: number, userId: number) {
    const elector = await repo.lockElector(trx, ctx.db.dialect, motionId, userId);
    if (!elector) throw forbidden(MOTION_MESSAGES.notElector);
    if (elector.conflicted === 1) throw forbidden(MOTION_MESSAGES.conflicted);
    return elector;
  }

  /**
   * A written vote handed in before a meeting's vote opens (schriftliche Stimmabgabe): offen and
   * namentlich only, by a voting member of today; it counts when the vote opens if its author is
   * then among the electors, and may be replaced until then.
   */
  async function writtenVote(
    trx: Transaction<Database>,
    actor: Actor,
    motion: repo.MotionRow,
    choice: Choice,
  ) {
    if (motion.event_id === null) throw conflict(MOTION_MESSAGES.writtenOnlyMeeting);
    if (motion.mode === 'geheim') throw conflict(MOTION_MESSAGES.writtenNotSecret);
    const members = await repo.votingMembers(trx, motion.committee_id, berlinToday(ctx));
    if (!members.some((m) => m.user_id === actor.principal.id)) {
      throw forbidden(MOTION_MESSAGES.notVotingMember);
    }
    const existing = await repo.findVote(trx, motion.id, actor.principal.id);
    await repo.upsertVote(trx, motion.id, actor.principal.id, choice, now());
    await audit(trx, actor, motion, {
      action: 'motion.voted',
      details: existing ? { written: true, changed: true } : { written: true },
    });
  }

  return {
    /** Mails the electors who did neither vote nor object, each at most once a day (Vorsitz, admins). */
    remind(actor: Actor, id: number): Promise<number> {
      return locked(actor, id, async (trx, { motion, functions }) => {
        if (!mayManageMotion(actor.principal, functions)) throw forbidden(MOTION_MESSAGES.onlyChair);
        if (motion.procedure !== 'umlauf') throw conflict(MOTION_MESSAGES.remindOnlyUmlauf);
        assertRunning(motion);
        const at = ctx.clock.now();
        const since = new Date(at.getTime() - DAY_MS).toISOString();
        const count = await sendReminders(ctx, trx, motion, since, at.toISOString());
        await audit(trx, actor, motion, { action: 'motion.reminded', details: { members: count } });
        return count;
      });
    },

    /**
     * A vote. Geheim: a ballot with a random id and `voted = 1`, in one transaction, no audit entry
     * now (the participation is recorded at closing); a second is 409. Offen/namentlich: the vote
     * is stored per member and may be changed where `changes_allowed`.
     */
    vote(actor: Actor, id: number, choice: Choice): Promise<void> {
      return locked(actor, id, async (trx, { motion }) => {
        if (motion.state === 'entwurf') return writtenVote(trx, actor, motion, choice);
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
        if (motion.state === 'abstimmung' && motion.procedure === 'umlauf' && motion.deadline! > at) {
          const electors = await repo.electorate(trx, motion.id);
          if (electors.some((e) => e.conflicted === 0 && e.voted === 0)) {
            throw conflict(MOTION_MESSAGES.umlaufNotComplete);
          }
        }
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
