import {
  germanDate,
  MEMBER_FUNCTION_GROUP_LABELS,
  MEMBER_FUNCTION_LABELS,
  MEMBER_FUNCTIONS,
  type ImportResult,
  type MemberFunction,
  type Membership,
  type Term,
} from '@gremienportal/contracts/committees';
import { TIME_ZONE } from '../../lib/format';
import { listOfNames, plural } from '../../lib/plural';

/** Today in the cooperative's time zone, as the API writes days: `2026-07-01`. */
export function berlinToday(now: Date = new Date()): string {
  // en-CA writes ISO days (YYYY-MM-DD).
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export const memberName = (membership: Pick<Membership, 'user'>) =>
  `${membership.user.firstname} ${membership.user.lastname}`;

const collator = new Intl.Collator('de-DE', { sensitivity: 'base' });

const byName = (a: Membership, b: Membership) =>
  collator.compare(a.user.lastname, b.user.lastname) ||
  collator.compare(a.user.firstname, b.user.firstname) ||
  a.id - b.id;

/** Ersatzmitglieder move up in the order of their rank; one without a rank comes last. */
const byRank = (a: Membership, b: Membership) =>
  (a.rank ?? Number.MAX_SAFE_INTEGER) - (b.rank ?? Number.MAX_SAFE_INTEGER) || byName(a, b);

/** "1. Ersatzmitglied" for a ranked Ersatzmitglied, else the function's name ("Vorsitz"). */
export function functionLabel(membership: Pick<Membership, 'function' | 'rank'>): string {
  if (membership.function === 'ersatzmitglied' && membership.rank !== null) {
    return `${membership.rank}. ${MEMBER_FUNCTION_LABELS.ersatzmitglied}`;
  }
  return MEMBER_FUNCTION_LABELS[membership.function];
}

/** A membership that ended before its term did (Rücktritt, Tod, …): listed as "Ausgeschieden". */
export function leftEarly(membership: Membership, term: Pick<Term, 'end'>, today: string): boolean {
  return !membership.active && membership.until < term.end && membership.until < today;
}

export const LEFT_GROUP_HEADING = 'Ausgeschieden';

export interface DirectoryGroup {
  /** A function, or `left` for those who left before the term ended. */
  key: MemberFunction | 'left';
  heading: string;
  members: Membership[];
}

/**
 * The member directory of one term: one group per function in the order of MEMBER_FUNCTIONS
 * (Vorsitz first), names in alphabetical order, Ersatzmitglieder by rank; those who left early
 * in a last group. Empty groups are left out.
 */
export function directoryGroups(
  memberships: readonly Membership[],
  term: Pick<Term, 'end'>,
  today: string = berlinToday(),
): DirectoryGroup[] {
  // An Ersatzmitglied who moved up serves on as Mitglied from the next day: that part is not listed.
  const continued = (membership: Membership) =>
    membership.user.id !== null &&
    memberships.some(
      (other) =>
        other.id !== membership.id &&
        other.user.id === membership.user.id &&
        other.from === nextDay(membership.until),
    );
  const listed = memberships.filter((membership) => !continued(membership));
  const left = listed.filter((membership) => leftEarly(membership, term, today));
  const serving = listed.filter((membership) => !left.includes(membership));
  const groups: DirectoryGroup[] = MEMBER_FUNCTIONS.map((fn) => ({
    key: fn,
    heading: MEMBER_FUNCTION_GROUP_LABELS[fn],
    members: serving
      .filter((membership) => membership.function === fn)
      .sort(fn === 'ersatzmitglied' ? byRank : byName),
  }));
  groups.push({ key: 'left', heading: LEFT_GROUP_HEADING, members: [...left].sort(byName) });
  return groups.filter((group) => group.members.length > 0);
}

/** "seit 01.07.2026", "ab 01.09.2026" (not begun yet) or "01.07.2022 bis 30.06.2026" (ended). */
export function periodText(membership: Pick<Membership, 'from' | 'until' | 'active'>, today: string): string {
  if (membership.active) return `seit ${germanDate(membership.from)}`;
  if (membership.from > today) return `ab ${germanDate(membership.from)}`;
  return `${germanDate(membership.from)} bis ${germanDate(membership.until)}`;
}

/** Whether the directory of this term may be changed: not archived, or reopened by a Super-Admin. */
export const termEditable = (term: Pick<Term, 'archived' | 'reopened'>) => !term.archived || term.reopened;

/** The current term if there is one, else the one that began last (terms come in any order). */
export function defaultTerm(terms: readonly Term[], currentId: number | null | undefined): Term | undefined {
  return terms.find((term) => term.id === currentId) ?? sortTerms(terms)[0];
}

/** Latest first, as the term selector lists them. */
export const sortTerms = (terms: readonly Term[]) =>
  [...terms].sort((a, b) => b.start.localeCompare(a.start) || b.id - a.id);

/** The day after `day` (`2030-06-30` → `2030-07-01`), for the next term's start. */
export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * The counts of a CSV import as one German sentence with the right singular or plural:
 * "3 neue Konten, 1 neue Mitgliedschaft und 2 fehlerhafte Zeilen". Counts of zero are left out.
 */
export function importCountsText(counts: ImportResult['counts']): string {
  const parts = [
    counts.new_accounts > 0 ? plural(counts.new_accounts, 'neues Konto', 'neue Konten') : null,
    counts.new_memberships > 0
      ? plural(counts.new_memberships, 'neue Mitgliedschaft', 'neue Mitgliedschaften')
      : null,
    counts.changed > 0
      ? plural(counts.changed, 'geänderte Mitgliedschaft', 'geänderte Mitgliedschaften')
      : null,
    counts.unchanged > 0
      ? plural(counts.unchanged, 'unveränderte Mitgliedschaft', 'unveränderte Mitgliedschaften')
      : null,
    counts.errors > 0 ? plural(counts.errors, 'fehlerhafte Zeile', 'fehlerhafte Zeilen') : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? listOfNames(parts) : 'keine Zeilen';
}

export const IMPORT_NOTHING_TO_DO = 'Die Datei ändert nichts an den Mitgliedschaften.';

/** Why "Import ausführen" is off for this preview, or null when it may run. */
export function importBlockedReason(result: ImportResult, hasErrorsMessage: string): string | null {
  if (result.counts.errors > 0 || result.rows.some((row) => row.action === 'error')) return hasErrorsMessage;
  const changes = result.counts.new_accounts + result.counts.new_memberships + result.counts.changed;
  return changes === 0 ? IMPORT_NOTHING_TO_DO : null;
}

// Shared with the Beschlussbuch's follow-up form.
export { parseGermanDay } from '../../lib/german-day';
