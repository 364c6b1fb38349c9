import type { Principal } from './principal.ts';

/*
 * Who sees which committee (decision 189): Admins and Super-Admins every committee; anyone else
 * the committees they belong to now (an applied, active membership of any function, also as
 * Ersatzmitglied). Everything else answers 404. Only Admins manage committees, terms and members.
 */

export const mayManageCommittees = (principal: Pick<Principal, 'isAdmin'>) => principal.isAdmin;

/** `belongsTo`: the ids of the committees the principal is an active member of. */
export const canSeeCommittee = (
  principal: Pick<Principal, 'isAdmin'>,
  belongsTo: ReadonlySet<number>,
  committeeId: number,
) => principal.isAdmin || belongsTo.has(committeeId);

/**
 * A member's e-mail address: to admins, to the member themself, and to fellow members (who alone
 * see the list) only when the member allowed it on their account page.
 */
export const canSeeMemberEmail = (
  principal: Pick<Principal, 'isAdmin' | 'id'>,
  member: { user_id: number | null; email_visible: number | null },
) => principal.isAdmin || member.user_id === principal.id || member.email_visible === 1;

/** Admins see every committee; the list is not narrowed to the principal's memberships. */
export const seesAllCommittees = (principal: Pick<Principal, 'isAdmin'>) => principal.isAdmin;

/** Who is proposed to move up is the office's working note: admins only. */
export const seesSuccessorProposals = mayManageCommittees;

/** Only a Super-Admin reopens an archived term's folder for a correction, or closes it again. */
export const mayReopenTerm = (principal: Pick<Principal, 'isSuperAdmin'>) => principal.isSuperAdmin;
