import {
  MOTION_MESSAGES,
  type CreateMotionBody,
  type Motion,
  type MotionListQuery,
  type OpenMotionBody,
} from '@gremienportal/contracts/resolutions';
import type { AppContext } from '../../context.ts';
import { forbidden, invalidField, notFound } from '../../errors.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import type { Actor } from '../../plugins/auth.ts';
import { canSeeMotion, mayManageMotion, mayWriteDraft, motionFilter } from '../../policies/motions.policy.ts';
import type { Principal } from '../../policies/principal.ts';
import { berlinToday } from '../committees/membership-states.ts';
import { umlaufOpenedMail, voidedMail } from './motions.mails.ts';
import * as repo from './motions.repository.ts';
import { motionPresenter } from './motions.present.ts';
import { visibleFileNames } from './linked-files.ts';
import { findVisibleEvent } from '../events/visible-event.ts';
import { conflict, motionsBase, votingService, type HandCounts } from './voting.service.ts';

export { closeDue, remindDue } from './voting.service.ts';

/*
 * Beschlussvorlagen (decision 190), without HTTP: drafts, opening with the electorate fixed,
 * hand counts, closing, withdrawing, the minute job's deadline. Votes, objections and conflicts
 * are `voting.service.ts`.
 *
 * Editing a motion whose vote runs voids the vote (Vorsitz or admin only): the motion returns to
 * the draft, the electorate, votes and ballots are deleted, the electors are told by mail, and
 * `update` answers `voided: MOTION_MESSAGES.voided` beside the motion (no error: the edit is kept).
 */

export type UpdateMotionBody = Partial<Omit<CreateMotionBody, 'committee_id'>>;

export function motionsService(ctx: AppContext) {
  const base = motionsBase(ctx);
  const { db, now, find, audit, committeeOf, locked } = base;
  const present = motionPresenter(ctx, committeeOf);

  /**
   * The checks of the links, as the writer sees them: the agenda item in its event, the event and
   * the documents visible to them (a hidden one is "not found", as a missing one).
   */
  async function draftFields(principal: Principal, body: UpdateMotionBody) {
    let eventId = body.event_id;
    if (body.agenda_item_id !== undefined) {
      const item = await repo.agendaItem(db(), body.agenda_item_id);
      if (!item || (eventId !== undefined && item.event_id !== eventId)) {
        throw invalidField('agenda_item_id', MOTION_MESSAGES.agendaItemMismatch);
      }
      eventId = item.event_id;
    }
    if (eventId !== undefined && !(await findVisibleEvent(db(), principal, { id: eventId }))) {
      throw invalidField('event_id', MOTION_MESSAGES.eventNotFound);
    }
    const fileIds = body.file_ids ? [...new Set(body.file_ids)] : undefined;
    if (fileIds && (await visibleFileNames(ctx, principal, fileIds)).size !== fileIds.length) {
      throw invalidField('file_ids', MOTION_MESSAGES.fileNotFound);
    }
    return { eventId, fileIds };
  }

  async function writable(principal: Principal, committeeId: number) {
    const functions = await repo.activeFunctions(db(), committeeId, principal.id);
    if (!canSeeMotion(principal, functions, false)) throw notFound();
    if (!mayWriteDraft(principal, functions)) throw forbidden(MOTION_MESSAGES.onlyChairOrSecretary);
    return functions;
  }

  async function get(principal: Principal, id: number): Promise<Motion> {
    const { motion, elector } = await find(db(), principal, id);
    if (elector && elector.first_opened_at === null && motion.state === 'abstimmung') {
      await repo.markFirstOpened(db(), motion.id, principal.id, now());
    }
    return present(principal, motion, elector);
  }

  const voting = votingService(ctx, base);

  return {
    ...voting,

    async create(actor: Actor, body: CreateMotionBody): Promise<Motion> {
      const committee = await repo.committeeBrief(db(), body.committee_id);
      if (!committee) throw notFound();
      await writable(actor.principal, committee.id);
      const { eventId, fileIds } = await draftFields(actor.principal, body);
      const rules = (await committeeOf(db(), { committee_id: committee.id } as repo.MotionRow)).rules;
      const at = now();
      const id = await db()
        .transaction()
        .execute(async (trx) => {
          const id = await repo.insertMotion(trx, {
            committee_id: committee.id,
            event_id: eventId ?? null,
            agenda_item_id: body.agenda_item_id ?? null,
            title: body.title,
            text: body.text,
            justification: body.justification ?? '',
            mode: body.mode,
            majority: body.majority ?? rules.majority,
            majority_basis: body.majority_basis ?? rules.majority_basis,
            quorum: body.quorum ?? rules.quorum,
            created_by: actor.principal.id,
            created_at: at,
            updated_at: at,
          });
          await repo.replaceFiles(trx, id, fileIds ?? []);
          const motion = (await repo.findMotion(trx, id))!;
          await audit(trx, actor, motion, {
            action: 'motion.created',
            details: { committee: committee.name },
          });
          return id;
        });
      return get(actor.principal, id);
    },

    get,

    /** The motions the principal may see (admins: all), or with `pending` those awaiting their vote. */
    async list(principal: Principal, query: MotionListQuery): Promise<Motion[]> {
      const executor = db();
      const rows = query.pending
        ? await repo.pendingFor(executor, principal.id, now())
        : await repo.listMotions(executor, {
            visible: motionFilter(principal),
            committee_id: query.committee_id,
            event_id: query.event_id,
          });
      return Promise.all(
        rows.map(async (row) =>
          present(principal, row, await repo.findElector(executor, row.id, principal.id)),
        ),
      );
    },

    /** Edits a draft; editing a running vote voids it (see above). */
    async update(
      actor: Actor,
      id: number,
      body: UpdateMotionBody,
    ): Promise<{ motion: Motion; voided: string | null }> {
      // Visibility first: what the body names is checked only for a motion the caller sees.
      await find(db(), actor.principal, id);
      const { eventId, fileIds } = await draftFields(actor.principal, body);
      const voided = await locked(actor, id, async (trx, { motion, functions }) => {
        const voiding = motion.state === 'abstimmung';
        if (motion.state !== 'entwurf' && !voiding) throw conflict(MOTION_MESSAGES.notDraft);
        if (!mayWriteDraft(actor.principal, functions)) throw forbidden(MOTION_MESSAGES.onlyChairOrSecretary);
        if (voiding && !mayManageMotion(actor.principal, functions))
          throw forbidden(MOTION_MESSAGES.onlyChair);
        const at = now();
        const electors = voiding ? await repo.electorate(trx, motion.id) : [];
        const fields = {
          ...(eventId !== undefined ? { event_id: eventId } : {}),
          ...(body.agenda_item_id !== undefined ? { agenda_item_id: body.agenda_item_id } : {}),
          ...(body.title !== undefined ? { title: body.title } : {}),
          ...(body.text !== undefined ? { text: body.text } : {}),
          ...(body.justification !== undefined ? { justification: body.justification } : {}),
          ...(body.mode !== undefined ? { mode: body.mode } : {}),
          ...(body.majority !== undefined ? { majority: body.majority } : {}),
          ...(body.majority_basis !== undefined ? { majority_basis: body.majority_basis } : {}),
          ...(body.quorum !== undefined ? { quorum: body.quorum } : {}),
        };
        const reset = voiding
          ? {
              state: 'entwurf' as const,
              procedure: null,
              deadline: null,
              opened_at: null,
              changes_allowed: 1,
            }
          : {};
        const handReset = voiding ? { hand_ja: null, hand_nein: null, hand_enthaltung: null } : {};
        await repo.updateMotion(trx, motion.id, { ...fields, ...reset, ...handReset, updated_at: at });
        if (fileIds) await repo.replaceFiles(trx, motion.id, fileIds);
        await audit(trx, actor, motion, {
          action: 'motion.updated',
          details: { fields: Object.keys(fields) },
        });
        if (!voiding) return false;
        await repo.clearVoting(trx, motion.id);
        await audit(trx, actor, motion, { action: 'motion.voided', details: { electors: electors.length } });
        const facts = {
          id: motion.id,
          title: fields.title ?? motion.title,
          committeeName: (await committeeOf(trx, motion)).name,
        };
        await enqueueMail(
          trx,
          ctx.clock,
          electors.map((e) => voidedMail(e, facts, ctx.config.PUBLIC_URL)),
        );
        return true;
      });
      return { motion: await get(actor.principal, id), voided: voided ? MOTION_MESSAGES.voided : null };
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await locked(actor, id, async (trx, { motion, functions }) => {
        if (!mayWriteDraft(actor.principal, functions)) throw forbidden(MOTION_MESSAGES.onlyChairOrSecretary);
        if (motion.state !== 'entwurf') throw conflict(MOTION_MESSAGES.notDraft);
        await audit(trx, actor, motion, { action: 'motion.deleted' });
        await repo.deleteMotion(trx, motion.id);
      });
    },

    /** Opens the vote and fixes the electorate in the same transaction. */
    async open(actor: Actor, id: number, body: OpenMotionBody): Promise<Motion> {
      await locked(actor, id, async (trx, { motion, functions }) => {
        if (!mayManageMotion(actor.principal, functions)) throw forbidden(MOTION_MESSAGES.onlyChair);
        if (motion.state !== 'entwurf') throw conflict(MOTION_MESSAGES.notDraft);
        const at = now();
        const deadline = body.deadline === undefined ? null : new Date(body.deadline).toISOString();
        const committee = await committeeOf(trx, motion);
        if (body.procedure === 'umlauf') {
          if (!committee.rules.circular_allowed)
            throw invalidField('procedure', MOTION_MESSAGES.umlaufNotAllowed);
          if (deadline === null) throw invalidField('deadline', MOTION_MESSAGES.deadlineRequired);
        }
        if (deadline !== null && deadline <= at)
          throw invalidField('deadline', MOTION_MESSAGES.deadlineInPast);
        const seen = new Set<number>();
        const members = (await repo.votingMembers(trx, committee.id, berlinToday(ctx))).filter(
          (m) => !seen.has(m.user_id) && seen.add(m.user_id),
        );
        if (members.length === 0) throw conflict(MOTION_MESSAGES.noElectorate);
        const claimed = await repo.claimState(trx, motion.id, 'entwurf', {
          state: 'abstimmung',
          procedure: body.procedure,
          deadline,
          changes_allowed: motion.mode === 'geheim' ? 0 : 1,
          opened_at: at,
          closed_at: null,
          updated_at: at,
        });
        if (!claimed) throw conflict(MOTION_MESSAGES.notDraft);
        await repo.insertElectorate(
          trx,
          members.map((m) => ({
            motion_id: motion.id,
            user_id: m.user_id,
            holder_name: m.holder_name,
            function: m.function,
          })),
        );
        if (body.procedure === 'sitzung') {
          // Written votes handed in beforehand count now, if their authors are electors.
          const electorIds = new Set(members.map((m) => m.user_id));
          const written = (await repo.writtenVotes(trx, motion.id)).filter((v) => electorIds.has(v.user_id));
          const keep = written.map((v) => v.user_id);
          await repo.deleteVotesExcept(trx, motion.id, keep);
          await repo.markVoted(trx, motion.id, keep);
        } else {
          await repo.deleteVotesExcept(trx, motion.id, []);
        }
        await audit(trx, actor, motion, {
          action: 'motion.opened',
          details: { procedure: body.procedure, deadline, electors: members.length },
        });
        if (body.procedure !== 'umlauf' || deadline === null) return;
        const electors = await repo.electorate(trx, motion.id);
        const facts = { id: motion.id, title: motion.title, committeeName: committee.name };
        await enqueueMail(
          trx,
          ctx.clock,
          electors.map((e) => umlaufOpenedMail(e, facts, deadline, ctx.config.PUBLIC_URL)),
        );
        await repo.markMailed(
          trx,
          motion.id,
          electors.map((e) => e.user_id),
          at,
        );
      });
      return get(actor.principal, id);
    },

    handCount: async (actor: Actor, id: number, counts: HandCounts): Promise<Motion> => {
      await voting.handCount(actor, id, counts);
      return get(actor.principal, id);
    },
    close: async (actor: Actor, id: number): Promise<Motion> => {
      await voting.close(actor, id);
      return get(actor.principal, id);
    },
    withdraw: async (actor: Actor, id: number): Promise<Motion> => {
      await voting.withdraw(actor, id);
      return get(actor.principal, id);
    },
  };
}
