import type { Committee, OwnMembership } from '@gremienportal/contracts/committees';
import type { ResolutionResult } from '@gremienportal/contracts/resolutions';
import { plural } from '../../lib/plural';

/*
 * The Beschlussbuch's filters (kept in the address, so a reload, the back button and a shared link
 * show the same list) and who may do what by their own memberships. Only types from the
 * contracts: resolutions.api.ts, which the event page loads first, uses this file.
 */

export const RESULTS: readonly ResolutionResult[] = [
  'angenommen',
  'abgelehnt',
  'nicht_beschlussfaehig',
  'widersprochen',
  'zurueckgezogen',
];

export interface RegisterFilters {
  committee_id?: number;
  term_id?: number;
  year?: number;
  result?: ResolutionResult;
  q?: string;
  /** "Überfällige Umsetzungen": follow-ups past their due date. */
  overdue?: boolean;
}

/** The address's parameters of the filters (German, as the page's other addresses). */
const PARAM = {
  committee_id: 'gremium',
  term_id: 'amtsperiode',
  year: 'jahr',
  result: 'ergebnis',
  q: 'q',
  overdue: 'ansicht',
} as const;
const OVERDUE_VIEW = 'ueberfaellig';

const positive = (text: string | null, max = 2_147_483_647): number | undefined => {
  if (!text || !/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= max ? value : undefined;
};

/** The filters an address names; anything unreadable is left out, as if not set. */
export function readRegisterFilters(params: URLSearchParams): RegisterFilters {
  const filters: RegisterFilters = {};
  const committee = positive(params.get(PARAM.committee_id));
  if (committee !== undefined) filters.committee_id = committee;
  const term = positive(params.get(PARAM.term_id));
  // A term belongs to its committee: without one it filters nothing the page could show.
  if (term !== undefined && committee !== undefined) filters.term_id = term;
  const year = positive(params.get(PARAM.year), 2200);
  if (year !== undefined && year >= 1900) filters.year = year;
  const result = params.get(PARAM.result);
  if (result && (RESULTS as readonly string[]).includes(result)) filters.result = result as ResolutionResult;
  const q = params.get(PARAM.q)?.trim();
  if (q) filters.q = q.slice(0, 200);
  if (params.get(PARAM.overdue) === OVERDUE_VIEW) filters.overdue = true;
  return filters;
}

/** The address's parameters for these filters. */
export function writeRegisterFilters(filters: RegisterFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.committee_id !== undefined) params.set(PARAM.committee_id, String(filters.committee_id));
  if (filters.term_id !== undefined && filters.committee_id !== undefined)
    params.set(PARAM.term_id, String(filters.term_id));
  if (filters.year !== undefined) params.set(PARAM.year, String(filters.year));
  if (filters.result) params.set(PARAM.result, filters.result);
  if (filters.q?.trim()) params.set(PARAM.q, filters.q.trim());
  if (filters.overdue) params.set(PARAM.overdue, OVERDUE_VIEW);
  return params;
}

/** The API's query for these filters (`?committee_id=3&year=2026`), '' without any. */
export function registerQueryString(filters: RegisterFilters): string {
  const params = new URLSearchParams();
  if (filters.committee_id !== undefined) params.set('committee_id', String(filters.committee_id));
  if (filters.term_id !== undefined) params.set('term_id', String(filters.term_id));
  if (filters.year !== undefined) params.set('year', String(filters.year));
  if (filters.result) params.set('result', filters.result);
  if (filters.q?.trim()) params.set('q', filters.q.trim());
  if (filters.overdue) params.set('overdue', '1');
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** How many of the list's filters are set ("Überfällige Umsetzungen" is a view, not a filter). */
export const activeFilterCount = (filters: RegisterFilters) =>
  [filters.committee_id, filters.term_id, filters.year, filters.result, filters.q].filter(
    (value) => value !== undefined && value !== '',
  ).length;

/** The years the filter offers: this year back to the first year of the Beschlussbuch's entries. */
export function yearChoices(now: Date = new Date(), first = 2020): number[] {
  const current = now.getFullYear();
  const years: number[] = [];
  for (let year = current; year >= Math.min(first, current); year -= 1) years.push(year);
  return years;
}

/** "1 Beschluss", "12 Beschlüsse". */
export const resolutionCountText = (count: number) => plural(count, 'Beschluss', 'Beschlüsse');

/** "1 überfällige Umsetzung", "3 überfällige Umsetzungen". */
export const overdueCountText = (count: number) =>
  plural(count, 'überfällige Umsetzung', 'überfällige Umsetzungen');

// ---------------------------------------------------------------------------------------------
// Who may do what, by the own memberships (GET /account); the server decides in the end

const activeFunctions = (memberships: readonly OwnMembership[], committeeId: number) =>
  memberships
    .filter((membership) => membership.active && membership.committee.id === committeeId)
    .map((membership) => membership.function);

/** Beschlussvorlagen are written by admins, the Vorsitz and the Schriftführung of the committee. */
export function mayWriteMotions(
  isAdmin: boolean,
  memberships: readonly OwnMembership[],
  committeeId: number,
): boolean {
  if (isAdmin) return true;
  const functions = activeFunctions(memberships, committeeId);
  return functions.includes('vorsitz') || functions.includes('schriftfuehrung');
}

/** Whether the member writes Beschlussvorlagen for any committee (the meeting page's links). */
export const writesAnyMotions = (isAdmin: boolean, memberships: readonly OwnMembership[]) =>
  isAdmin ||
  memberships.some(
    (membership) =>
      membership.active && (membership.function === 'vorsitz' || membership.function === 'schriftfuehrung'),
  );

/** The committees a new Beschlussvorlage may be written for, as the form's choices. */
export const writableCommittees = (
  committees: readonly Pick<Committee, 'id' | 'name'>[],
  isAdmin: boolean,
  memberships: readonly OwnMembership[],
) => committees.filter((committee) => mayWriteMotions(isAdmin, memberships, committee.id));

/** The follow-up (Umsetzung) is kept by the Vorsitz, the Schriftführung and admins. */
export const mayKeepFollowUp = mayWriteMotions;

/** Only the committee's Vorsitz corrects an entry of its Beschlussbuch (not an admin role). */
export const mayCorrect = (memberships: readonly OwnMembership[], committeeId: number) =>
  activeFunctions(memberships, committeeId).includes('vorsitz');

/** A voting member today: an active membership other than Ersatzmitglied (decision 189). */
export const isVotingMember = (memberships: readonly OwnMembership[], committeeId: number) =>
  activeFunctions(memberships, committeeId).some((fn) => fn !== 'ersatzmitglied');
