import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { MemberFunction } from '@gremienportal/contracts/committees';
import type { Database } from '../db/schema.ts';
import type { Principal } from './principal.ts';

/*
 * Who may do what with a Beschlussvorlage (decision 190). `functions` are the functions of the
 * principal's applied, active memberships in the motion's committee (decision 189); `elector` is
 * the principal's row of the electorate fixed at opening, if any.
 *
 * - See: Admins; members of the committee (any function, Ersatzmitglied included); and an elector
 *   whose membership ended while the vote runs (they keep their vote). Everyone else: 404.
 * - Manage (open, close, withdraw, hand counts, conflicts of others, edit a running vote, which
 *   voids it): Admins and the committee's Vorsitz.
 * - Write a draft (create, edit, delete): also the Schriftführung.
 * - Vote and object: an elector without a declared conflict.
 */

type Who = Pick<Principal, 'isAdmin'>;

export const canSeeMotion = (principal: Who, functions: readonly MemberFunction[], isElector: boolean) =>
  principal.isAdmin || functions.length > 0 || isElector;

export const mayManageMotion = (principal: Who, functions: readonly MemberFunction[]) =>
  principal.isAdmin || functions.includes('vorsitz');

export const mayWriteDraft = (principal: Who, functions: readonly MemberFunction[]) =>
  mayManageMotion(principal, functions) || functions.includes('schriftfuehrung');

export const mayVote = (elector: { conflicted: number } | undefined) =>
  elector !== undefined && elector.conflicted === 0;

/** A condition on `motions` rows: `canSeeMotion` as SQL, in the query that finds the row. */
export type MotionRowFilter = (eb: ExpressionBuilder<Database, 'motions'>) => Expression<SqlBool>;

/**
 * `canSeeMotion` in the query that finds the motion, so a hidden motion and a missing one run the
 * same queries and get no row (decision 150); undefined for admins, who see every motion.
 */
export function motionFilter(principal: Pick<Principal, 'isAdmin' | 'id'>): MotionRowFilter | undefined {
  if (principal.isAdmin) return undefined;
  return (eb) =>
    eb.or([
      eb(
        'motions.committee_id',
        'in',
        eb
          .selectFrom('committee_memberships')
          .select('committee_memberships.committee_id')
          .where('committee_memberships.user_id', '=', principal.id)
          .where('committee_memberships.state', '=', 'active'),
      ),
      eb.exists(
        eb
          .selectFrom('motion_electorate')
          .select('motion_electorate.motion_id')
          .whereRef('motion_electorate.motion_id', '=', 'motions.id')
          .where('motion_electorate.user_id', '=', principal.id),
      ),
    ]);
}

/**
 * Who sees a resolution of the Beschlussbuch: admins, and members of its committee (an applied,
 * active membership), in the query that finds it; undefined for admins.
 */
export function resolutionFilter(
  principal: Pick<Principal, 'isAdmin' | 'id'>,
): ((eb: ExpressionBuilder<Database, 'resolutions'>) => Expression<SqlBool>) | undefined {
  if (principal.isAdmin) return undefined;
  return (eb) =>
    eb(
      'resolutions.committee_id',
      'in',
      eb
        .selectFrom('committee_memberships')
        .select('committee_memberships.committee_id')
        .where('committee_memberships.user_id', '=', principal.id)
        .where('committee_memberships.state', '=', 'active'),
    );
}
