import type { MemberFunction } from '@gremienportal/contracts/committees';
import type { Principal } from './principal.ts';

/*
 * Who may do what with a Niederschrift (decision 193). `functions` are the functions of the
 * principal's applied, active memberships in its committee (decision 189); `signers` the
 * committee's rule of who signs its minutes.
 *
 * - Write the draft (create, save): admins, the committee's Vorsitz and Schriftführung.
 * - Read drafts and remarks: those, and the functions that sign the committee's minutes.
 * - Read a sealed Niederschrift: also every member of the committee. Everyone else: 404.
 */

type Who = Pick<Principal, 'isAdmin'>;

export const mayWriteMinutes = (principal: Who, functions: readonly MemberFunction[]) =>
  principal.isAdmin || functions.includes('vorsitz') || functions.includes('schriftfuehrung');

export const canSeeMinutesDraft = (
  principal: Who,
  functions: readonly MemberFunction[],
  signers: readonly MemberFunction[],
) => mayWriteMinutes(principal, functions) || functions.some((f) => signers.includes(f));

export const canSeeSealedMinutes = (principal: Who, functions: readonly MemberFunction[]) =>
  principal.isAdmin || functions.length > 0;
