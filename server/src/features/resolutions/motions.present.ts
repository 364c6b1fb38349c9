import type { Motion } from '@gremienportal/contracts/resolutions';
import type { AppContext } from '../../context.ts';
import { mayManageMotion, mayWriteDraft } from '../../policies/motions.policy.ts';
import type { Principal } from '../../policies/principal.ts';
import { visibleFileNames } from './linked-files.ts';
import * as repo from './motions.repository.ts';
import type { motionsBase } from './voting.service.ts';

/**
 * A motion as the principal may see it (decision 190): their own vote (never the choice of a secret
 * ballot), counts and names only after closing (names in namentlich mode), the electorate with the
 * delivery proof for the Vorsitz and admins, the linked documents the files policy shows them.
 */

const CLOSED_STATES = new Set(['geschlossen', 'festgestellt']);
const byName = (a: string, b: string) => a.localeCompare(b, 'de');

export function motionPresenter(ctx: AppContext, committeeOf: ReturnType<typeof motionsBase>['committeeOf']) {
  const db = () => ctx.db.kysely;

  /** The linked documents as the files policy lets the principal see them, by name. */
  async function visibleFiles(principal: Principal, motionId: number) {
    const names = await visibleFileNames(ctx, principal, await repo.fileIdsOf(db(), motionId));
    return [...names].map(([id, name]) => ({ id, name })).sort((a, b) => byName(a.name, b.name));
  }

  return async function present(
    principal: Principal,
    motion: repo.MotionRow,
    elector?: repo.ElectorRow,
  ): Promise<Motion> {
    const executor = db();
    const committee = await committeeOf(executor, motion);
    const functions = await repo.activeFunctions(executor, motion.committee_id, principal.id);
    const manage = mayManageMotion(principal, functions);
    // The whole electorate only for the delivery table; a member's view names only a few.
    const everyone = manage ? await repo.electorate(executor, motion.id) : null;
    const electors = everyone ?? (await repo.notableElectors(executor, motion.id));
    const closed = CLOSED_STATES.has(motion.state);
    const secret = motion.mode === 'geheim';
    // A written vote before opening has no electorate row yet.
    const ownVote =
      !secret && (elector || motion.state === 'entwurf')
        ? await repo.findVote(executor, motion.id, principal.id)
        : undefined;
    let counts: Motion['counts'] = null;
    if (closed) {
      const online = await repo.onlineCounts(executor, motion.id, secret);
      counts = {
        ja: online.ja + (motion.hand_ja ?? 0),
        nein: online.nein + (motion.hand_nein ?? 0),
        enthaltung: online.enthaltung + (motion.hand_enthaltung ?? 0),
      };
    }
    const resolution = await repo.latestResolution(executor, motion.id);
    const hand =
      motion.hand_ja === null
        ? null
        : { ja: motion.hand_ja, nein: motion.hand_nein ?? 0, enthaltung: motion.hand_enthaltung ?? 0 };
    return {
      id: motion.id,
      committee: { id: committee.id, name: committee.name },
      event_id: motion.event_id,
      agenda_item_id: motion.agenda_item_id,
      title: motion.title,
      text: motion.text,
      justification: motion.justification,
      mode: motion.mode,
      majority: motion.majority,
      majority_basis: motion.majority_basis,
      quorum: motion.quorum,
      state: motion.state,
      procedure: motion.procedure,
      deadline: motion.deadline,
      own: {
        elector: elector !== undefined,
        voted: elector?.voted === 1,
        // Never the choice of a secret ballot: nothing stored could tell it.
        choice: secret ? null : (ownVote?.choice ?? null),
        objected: elector?.objected_at !== null && elector?.objected_at !== undefined,
        conflicted: elector?.conflicted === 1,
      },
      counts,
      names:
        closed && motion.mode === 'namentlich'
          ? (await repo.namedVotes(executor, motion.id)).sort((a, b) => byName(a.name, b.name))
          : null,
      conflicts: electors
        .filter((e) => e.conflicted === 1)
        .map((e) => e.holder_name)
        .sort(byName),
      objections: electors
        .filter((e) => e.objected_at !== null)
        .map((e) => ({ name: e.holder_name, reason: e.objection_reason }))
        .sort((a, b) => byName(a.name, b.name)),
      files: await visibleFiles(principal, motion.id),
      electorate: everyone
        ? everyone.map((e) => ({
            user_id: e.user_id,
            name: e.holder_name,
            mailed_at: e.mailed_at,
            first_opened_at: e.first_opened_at,
            voted: e.voted === 1,
            objected: e.objected_at !== null,
            conflicted: e.conflicted === 1,
          }))
        : null,
      hand_count: closed || manage ? hand : null,
      may: {
        manage,
        edit: mayWriteDraft(principal, functions),
        establish: functions.includes('vorsitz'),
      },
      resolution: resolution ?? null,
    };
  };
}
