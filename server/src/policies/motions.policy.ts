import type { MemberFunction } from '@gremienportal/contracts/committees';
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
