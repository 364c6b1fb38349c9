import { COMMITTEE_MESSAGES, type EndReason, type MemberFunction } from '@gremienportal/contracts/committees';
import { AppError } from '../../errors.ts';
import type * as repo from './committees.repository.ts';

/** What a membership is to be, checked against its term and the committee's other members. */
export interface MembershipDraft {
  id?: number;
  user_id: number;
  function: MemberFunction;
  rank: number | null;
  from: string;
  until: string;
  district: string | null;
  reason: EndReason | null;
}

const overlapping = (a: { valid_from: string; valid_until: string }, from: string, until: string) =>
  a.valid_from <= until && from <= a.valid_until;

export const holderName = (user: { title: string; firstname: string; lastname: string }) =>
  `${user.firstname} ${user.lastname}`;

/** The day after `day` (`YYYY-MM-DD`). */
export const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The rules of one membership: inside its term, until not before from, a rank exactly for
 * Ersatzmitglieder, a reason only for an early end, one Vorsitz at a time, one membership of a
 * person at a time. `others`: the term's memberships as stored. Returns German messages by field.
 */
export function membershipProblems(
  draft: MembershipDraft,
  term: repo.TermRow,
  others: readonly repo.MembershipRow[],
): Record<string, string> {
  const problems: Record<string, string> = {};
  if (draft.from < term.starts_on || draft.from > term.ends_on)
    problems.from = COMMITTEE_MESSAGES.outsideTerm;
  if (draft.until < term.starts_on || draft.until > term.ends_on)
    problems.until = COMMITTEE_MESSAGES.outsideTerm;
  if (draft.until < draft.from) problems.until = COMMITTEE_MESSAGES.untilBeforeFrom;
  if (draft.function === 'ersatzmitglied' && draft.rank === null)
    problems.rank = COMMITTEE_MESSAGES.rankRequired;
  if (draft.function !== 'ersatzmitglied' && draft.rank !== null)
    problems.rank = COMMITTEE_MESSAGES.rankOnlySubstitutes;
  if (draft.reason !== null && draft.until >= term.ends_on)
    problems.reason = COMMITTEE_MESSAGES.reasonNeedsEarlyEnd;
  const rest = others.filter((other) => other.id !== draft.id && overlapping(other, draft.from, draft.until));
  if (draft.function === 'vorsitz' && rest.some((other) => other.function === 'vorsitz')) {
    problems.function = COMMITTEE_MESSAGES.twoChairs;
  }
  if (rest.some((other) => other.user_id === draft.user_id))
    problems.user_id = COMMITTEE_MESSAGES.alreadyMember;
  return problems;
}

export function assertValid(
  draft: MembershipDraft,
  term: repo.TermRow,
  others: readonly repo.MembershipRow[],
) {
  const problems = membershipProblems(draft, term, others);
  const fields = Object.keys(problems);
  if (fields.length === 0) return;
  throw new AppError(
    'validation',
    problems[fields[0]!]!,
    Object.fromEntries(fields.map((field) => [field, [problems[field]!]])),
  );
}

/** The Ersatzmitglied next in rank (same Wahlbezirk if the ended one had one) still serving after it. */
export function proposedSuccessor(
  ended: repo.MembershipRow,
  term: repo.TermRow,
  members: readonly repo.MembershipWithUser[],
): repo.MembershipWithUser | undefined {
  if (ended.function === 'ersatzmitglied' || ended.succeeded_by !== null) return undefined;
  if (ended.valid_until >= term.ends_on) return undefined;
  return members
    .filter(
      (m) =>
        m.function === 'ersatzmitglied' &&
        m.user_id !== null &&
        m.valid_until > ended.valid_until &&
        m.valid_from <= ended.valid_until &&
        (ended.district === null || m.district === ended.district),
    )
    .sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0) || a.id - b.id)[0];
}
