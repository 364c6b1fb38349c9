import type { MajorityBasis, MajorityRule, QuorumRule, TieRule } from './committees.ts';

/*
 * The count of a resolution: quorum, majority and the German sentence the minutes and the pages
 * show. Pure and without zod (only the rule *types* come from committees.ts, erased at build), so
 * a page can count live without loading the committees' schemas. Integer arithmetic only.
 *
 * Decisions:
 * - Quorum: participants against all voting members. A member with a conflict of interest stays a
 *   member: the electorate is not reduced, neither for the quorum nor for a majority "of the
 *   members" (the required number stays what the Satzung says; the member's missing vote works
 *   like a Nein there). Whether the member takes part is up to the caller's `participants`: one
 *   who attends and refrains from voting takes part for the quorum (BGH II ZR 325/05: a member
 *   barred from voting who attends and abstains keeps the board quorate), one who left the room
 *   does not. Their refraining is never an Enthaltung in the count, even where abstentions count:
 *   a member who must not vote must not sway the result.
 * - Stimmengleichheit: a simple majority with the Ja-Stimmen exactly half of the base (with the
 *   abstentions not counting: as many Ja- as Nein-Stimmen). With tie 'chair' the chair's own vote
 *   decides: Ja carries it; Nein, an abstention or no vote (or a secret ballot: null) rejects it.
 *   Qualified majorities know no tie.
 * - No votes (a base of 0) reject, also for a qualified majority.
 * - Inconsistent counts (negative, not whole, more votes than participants, more participants
 *   than members, more votes than members without a conflict, a chair's vote the count does not
 *   hold) throw a RangeError: the count must not pretend a result.
 */

export type Choice = 'ja' | 'nein' | 'enthaltung';

export interface TallyInput {
  /** Voting members of the electorate (fixed when the vote opened), conflicted ones included. */
  members: number;
  /** Members with a declared conflict of interest: they do not vote but remain members. */
  conflicted: number;
  /** All votes counted (online + hand count + written votes). */
  ja: number;
  nein: number;
  enthaltung: number;
  /**
   * Members who took part (voted, abstentions included; written votes included; a present
   * conflicted member who refrains may be included, see above): for the quorum.
   */
  participants: number;
  quorum: QuorumRule;
  majority: MajorityRule;
  basis: MajorityBasis;
  abstentionsCount: boolean;
  tie: TieRule;
  /** How the Vorsitz voted: only read for a tie with tie 'chair' (null in a secret ballot). */
  chairVote?: Choice | null;
}

export const TALLY_OUTCOMES = ['angenommen', 'abgelehnt', 'nicht_beschlussfaehig'] as const;
export type TallyOutcome = (typeof TALLY_OUTCOMES)[number];
export const OUTCOME_LABELS: Record<TallyOutcome, string> = {
  angenommen: 'Angenommen',
  abgelehnt: 'Abgelehnt',
  nicht_beschlussfaehig: 'Nicht beschlussfähig',
};

export interface Tally {
  outcome: TallyOutcome;
  quorate: boolean;
  /** Ja-Stimmen needed to carry it with this base, without the chair's casting vote (at least 1). */
  required: number;
  /** The base of the majority: the votes counted, or the members. */
  counted: number;
  /** A German sentence explaining the outcome, for the minutes and the page. */
  reason: string;
}

// The committees' labels, repeated here so that this module does not load committees.ts (zod);
// the test checks that they stay the same.
const QUORUM_PHRASES: Record<QuorumRule, string> = {
  more_than_half: 'mehr als die Hälfte der Mitglieder',
  at_least_half: 'mindestens die Hälfte der Mitglieder',
  two_thirds: 'mindestens zwei Drittel der Mitglieder',
  none: 'ohne Mindestzahl',
};
const MAJORITY_PHRASES: Record<MajorityRule, string> = {
  simple: 'einfache Mehrheit',
  two_thirds: 'Zwei-Drittel-Mehrheit',
  three_quarters: 'Drei-Viertel-Mehrheit',
};
const BASIS_PHRASES: Record<MajorityBasis, string> = {
  cast: 'der abgegebenen Stimmen',
  members: 'der Mitglieder',
};

/** ⌈a / b⌉ for whole a ≥ 0 and b > 0, without a fractional intermediate. */
const ceilDiv = (a: number, b: number) => (a - (a % b)) / b + (a % b === 0 ? 0 : 1);

/** Participants the quorum needs (0 for 'none'). */
function quorumNeeded(rule: QuorumRule, members: number): number {
  switch (rule) {
    case 'more_than_half':
      return (members - (members % 2)) / 2 + 1;
    case 'at_least_half':
      return ceilDiv(members, 2);
    case 'two_thirds':
      return ceilDiv(2 * members, 3);
    case 'none':
      return 0;
  }
}

/** Ja-Stimmen a majority needs for a base (for a base of 0: 1, as no votes never carry it). */
function majorityNeeded(rule: MajorityRule, base: number): number {
  switch (rule) {
    case 'simple':
      return (base - (base % 2)) / 2 + 1;
    case 'two_thirds':
      return Math.max(1, ceilDiv(2 * base, 3));
    case 'three_quarters':
      return Math.max(1, ceilDiv(3 * base, 4));
  }
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "5 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung", "5 Ja-Stimmen gegen 1 Nein-Stimme bei 2 Enthaltungen". */
function votesPhrase(ja: number, nein: number, enthaltung: number): string {
  const votes =
    (ja === 1) === (nein === 1)
      ? `${ja} Ja- gegen ${count(nein, 'Nein-Stimme', 'Nein-Stimmen')}`
      : `${count(ja, 'Ja-Stimme', 'Ja-Stimmen')} gegen ${count(nein, 'Nein-Stimme', 'Nein-Stimmen')}`;
  return `${votes} bei ${count(enthaltung, 'Enthaltung', 'Enthaltungen')}`;
}

function check(input: TallyInput): void {
  const { members, conflicted, ja, nein, enthaltung, participants } = input;
  const numbers = { members, conflicted, ja, nein, enthaltung, participants };
  for (const [name, value] of Object.entries(numbers)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`Auszählung: ${name} muss eine ganze Zahl ab 0 sein (ist ${value}).`);
    }
  }
  const cast = ja + nein + enthaltung;
  if (conflicted > members) throw new RangeError('Auszählung: mehr befangene Mitglieder als Mitglieder.');
  if (participants > members) throw new RangeError('Auszählung: mehr Teilnehmende als Mitglieder.');
  if (cast > participants) throw new RangeError('Auszählung: mehr Stimmen als Teilnehmende.');
  if (cast > members - conflicted) {
    throw new RangeError('Auszählung: mehr Stimmen als stimmberechtigte Mitglieder.');
  }
  const chair = input.chairVote;
  if (chair && input[chair] === 0) {
    throw new RangeError(`Auszählung: die Stimme des Vorsitzes (${chair}) fehlt in der Zählung.`);
  }
}

export function tally(input: TallyInput): Tally {
  check(input);
  const { members, conflicted, ja, nein, enthaltung, participants, majority, basis } = input;
  const counted = basis === 'members' ? members : ja + nein + (input.abstentionsCount ? enthaltung : 0);
  const required = majorityNeeded(majority, counted);
  const needed = quorumNeeded(input.quorum, members);
  const quorate = participants >= needed;

  const rule =
    `${MAJORITY_PHRASES[majority]} ${BASIS_PHRASES[basis]}` +
    (basis === 'cast' && input.abstentionsCount ? ', Enthaltungen zählen mit' : '');
  const votes = votesPhrase(ja, nein, enthaltung);
  const conflicts =
    conflicted === 0
      ? ''
      : ` ${count(conflicted, 'Mitglied hat', 'Mitglieder haben')} wegen eines Interessenkonflikts nicht mitgestimmt.`;
  const result = (outcome: TallyOutcome, sentence: string): Tally => ({
    outcome,
    quorate,
    required,
    counted,
    reason: sentence + conflicts,
  });

  if (!quorate) {
    const of = count(members, 'Mitglied', 'Mitgliedern');
    return result(
      'nicht_beschlussfaehig',
      `Nicht beschlussfähig: ${participants} von ${of} ${participants === 1 ? 'hat' : 'haben'} teilgenommen, ` +
        `erforderlich ${needed === 1 ? 'ist' : 'sind'} mindestens ${needed} (${QUORUM_PHRASES[input.quorum]}).`,
    );
  }

  if (majority === 'simple' && counted > 0 && 2 * ja === counted) {
    if (input.tie === 'chair') {
      return input.chairVote === 'ja'
        ? result(
            'angenommen',
            `Angenommen bei Stimmengleichheit durch die Stimme des Vorsitzes mit ${votes} (${rule}).`,
          )
        : result(
            'abgelehnt',
            `Abgelehnt bei Stimmengleichheit mit ${votes}: der Vorsitz, dessen Stimme entscheidet, hat nicht mit Ja gestimmt (${rule}).`,
          );
    }
    return result(
      'abgelehnt',
      `Abgelehnt bei Stimmengleichheit mit ${votes} (${rule}; Stimmengleichheit bedeutet Ablehnung).`,
    );
  }

  const carried =
    counted > 0 &&
    (majority === 'simple'
      ? 2 * ja > counted
      : majority === 'two_thirds'
        ? 3 * ja >= 2 * counted
        : 4 * ja >= 3 * counted);
  return carried
    ? result('angenommen', `Angenommen mit ${votes} (${rule}).`)
    : result(
        'abgelehnt',
        `Abgelehnt mit ${votes} (${rule}, erforderlich: ${count(required, 'Ja-Stimme', 'Ja-Stimmen')}).`,
      );
}
