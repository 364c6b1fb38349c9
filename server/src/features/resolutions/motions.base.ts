import type { MemberFunction } from '@gremienportal/contracts/committees';
import { MOTION_MESSAGES } from '@gremienportal/contracts/resolutions';
import type { Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeMotion, motionFilter } from '../../policies/motions.policy.ts';
import type { Principal } from '../../policies/principal.ts';
import { auditOn, recordAudit, type AuditEntry } from '../audit/audit-log.service.ts';
import * as repo from './motions.repository.ts';

/* Helpers the motions service, the voting door and the deadlines share (decision 190). */

export type HandCounts = { ja: number; nein: number; enthaltung: number };

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

  /**
   * The motion if the principal may see it (404 otherwise, decided in the query that finds it, so
   * hidden and missing cost the same), with the principal's access.
   */
  async function visible(executor: repo.Executor, principal: Principal, motion: repo.MotionRow | undefined) {
    if (!motion) throw notFound();
    const access = await accessOf(executor, principal, motion);
    if (!canSeeMotion(principal, access.functions, access.elector !== undefined)) throw notFound();
    return { motion, ...access };
  }

  const find = async (executor: repo.Executor, principal: Principal, id: number) =>
    visible(executor, principal, await repo.findMotion(executor, id, motionFilter(principal)));

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
        const motion = await repo.lockMotion(trx, ctx.db.dialect, id, motionFilter(actor.principal));
        const found = await visible(trx, actor.principal, motion);
        return work(trx, found);
      });
  }

  return { db, now, accessOf, visible, find, audit, assertRunning, committeeOf, locked };
}
