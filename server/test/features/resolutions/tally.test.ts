import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAJORITY_BASES,
  MAJORITY_BASIS_LABELS,
  MAJORITY_LABELS,
  MAJORITY_RULES,
  QUORUM_LABELS,
  QUORUM_RULES,
  TIE_RULES,
} from '@gremienportal/contracts/committees';
import {
  OUTCOME_LABELS,
  TALLY_OUTCOMES,
  tally,
  type Choice,
  type TallyInput,
} from '@gremienportal/contracts/tally';

/** The GdW defaults (DEFAULT_COMMITTEE_RULES): more than half take part, simple majority of the votes cast. */
const AR: TallyInput = {
  members: 9,
  conflicted: 0,
  ja: 0,
  nein: 0,
  enthaltung: 0,
  participants: 0,
  quorum: 'more_than_half',
  majority: 'simple',
  basis: 'cast',
  abstentionsCount: false,
  tie: 'rejected',
};
const ar = (overrides: Partial<TallyInput>): TallyInput => ({ ...AR, ...overrides });
/** A Vertreterversammlung deciding a Satzungsänderung: three quarters of the votes cast. */
const satzung = (overrides: Partial<TallyInput>): TallyInput =>
  ar({ members: 30, participants: 20, majority: 'three_quarters', ...overrides });

describe('tally: typical cases', () => {
  it.each<[string, TallyInput, string, number, number]>([
    ['AR of 9, 5 present, 3:2', ar({ participants: 5, ja: 3, nein: 2 }), 'angenommen', 3, 5],
    ['AR of 9, tie 2:2 rejects', ar({ participants: 5, ja: 2, nein: 2, enthaltung: 1 }), 'abgelehnt', 3, 4],
    [
      'AR of 9, tie 2:2, the chair voted Ja',
      ar({ participants: 5, ja: 2, nein: 2, enthaltung: 1, tie: 'chair', chairVote: 'ja' }),
      'angenommen',
      3,
      4,
    ],
    [
      'AR of 9, tie 2:2, the chair voted Nein',
      ar({ participants: 5, ja: 2, nein: 2, enthaltung: 1, tie: 'chair', chairVote: 'nein' }),
      'abgelehnt',
      3,
      4,
    ],
    [
      'AR of 9, tie 2:2, the chair abstained',
      ar({ participants: 5, ja: 2, nein: 2, enthaltung: 1, tie: 'chair', chairVote: 'enthaltung' }),
      'abgelehnt',
      3,
      4,
    ],
    [
      'AR of 9, tie 2:2, the chair did not vote (secret ballot)',
      ar({ participants: 5, ja: 2, nein: 2, enthaltung: 1, tie: 'chair', chairVote: null }),
      'abgelehnt',
      3,
      4,
    ],
    ['AR of 9, 4 present', ar({ participants: 4, ja: 4 }), 'nicht_beschlussfaehig', 3, 4],
    [
      'AR of 8, 4 present, at least half',
      ar({ members: 8, quorum: 'at_least_half', participants: 4, ja: 3, nein: 1 }),
      'angenommen',
      3,
      4,
    ],
    [
      'AR of 9, 4 present, at least half',
      ar({ quorum: 'at_least_half', participants: 4, ja: 3, nein: 1 }),
      'nicht_beschlussfaehig',
      3,
      4,
    ],
    [
      'AR of 9, 6 present, two thirds',
      ar({ quorum: 'two_thirds', participants: 6, ja: 4, nein: 2 }),
      'angenommen',
      4,
      6,
    ],
    [
      'AR of 9, 5 present, two thirds',
      ar({ quorum: 'two_thirds', participants: 5, ja: 5 }),
      'nicht_beschlussfaehig',
      3,
      5,
    ],
    ['no quorum rule, 1 of 9 present', ar({ quorum: 'none', participants: 1, ja: 1 }), 'angenommen', 1, 1],
    ['Satzungsänderung 15:5 (exactly three quarters)', satzung({ ja: 15, nein: 5 }), 'angenommen', 15, 20],
    ['Satzungsänderung 14:6', satzung({ ja: 14, nein: 6 }), 'abgelehnt', 15, 20],
    [
      'Satzungsänderung 15:5:2, abstentions do not count',
      satzung({ ja: 15, nein: 5, enthaltung: 2, participants: 22 }),
      'angenommen',
      15,
      20,
    ],
    [
      'Satzungsänderung 15:5:2, abstentions count',
      satzung({ ja: 15, nein: 5, enthaltung: 2, participants: 22, abstentionsCount: true }),
      'abgelehnt',
      17,
      22,
    ],
    [
      'two thirds 6:3 (exactly)',
      ar({ majority: 'two_thirds', participants: 9, ja: 6, nein: 3 }),
      'angenommen',
      6,
      9,
    ],
    ['two thirds 5:3', ar({ majority: 'two_thirds', participants: 8, ja: 5, nein: 3 }), 'abgelehnt', 6, 8],
    [
      '4:3:2, abstentions do not count',
      ar({ participants: 9, ja: 4, nein: 3, enthaltung: 2 }),
      'angenommen',
      4,
      7,
    ],
    [
      '4:3:2, abstentions count',
      ar({ participants: 9, ja: 4, nein: 3, enthaltung: 2, abstentionsCount: true }),
      'abgelehnt',
      5,
      9,
    ],
    [
      '3:2:1, abstentions count: a tie',
      ar({ participants: 6, ja: 3, nein: 2, enthaltung: 1, abstentionsCount: true }),
      'abgelehnt',
      4,
      6,
    ],
    [
      'majority of the 9 members, 4:3',
      ar({ basis: 'members', participants: 7, ja: 4, nein: 3 }),
      'abgelehnt',
      5,
      9,
    ],
    [
      'majority of the 9 members, 5:2',
      ar({ basis: 'members', participants: 7, ja: 5, nein: 2 }),
      'angenommen',
      5,
      9,
    ],
    [
      'majority of the 8 members, 4:0, the chair voted Ja',
      ar({
        members: 8,
        basis: 'members',
        participants: 5,
        ja: 4,
        enthaltung: 1,
        tie: 'chair',
        chairVote: 'ja',
      }),
      'angenommen',
      5,
      8,
    ],
    ['abstentions only', ar({ participants: 5, enthaltung: 5 }), 'abgelehnt', 1, 0],
    [
      'abstentions only, tie chair: no tie without votes',
      ar({ participants: 5, enthaltung: 5, tie: 'chair', chairVote: 'enthaltung' }),
      'abgelehnt',
      1,
      0,
    ],
    ['three quarters of no votes', ar({ majority: 'three_quarters', participants: 5 }), 'abgelehnt', 1, 0],
    ['no members, no quorum rule', ar({ members: 0, quorum: 'none' }), 'abgelehnt', 1, 0],
    ['no members, more than half', ar({ members: 0 }), 'nicht_beschlussfaehig', 1, 0],
    [
      'no members, majority of the members',
      ar({ members: 0, quorum: 'at_least_half', basis: 'members' }),
      'abgelehnt',
      1,
      0,
    ],
    [
      'a conflicted member present keeps it quorate',
      ar({ conflicted: 1, participants: 5, ja: 3, nein: 1 }),
      'angenommen',
      3,
      4,
    ],
    [
      'a conflicted member still counts among the members',
      ar({ conflicted: 1, basis: 'members', participants: 8, ja: 4, nein: 4 }),
      'abgelehnt',
      5,
      9,
    ],
  ])('%s', (_name, input, outcome, required, counted) => {
    const result = tally(input);
    expect(result).toMatchObject({
      outcome,
      required,
      counted,
      quorate: outcome !== 'nicht_beschlussfaehig',
    });
  });

  it.each<[TallyInput, string]>([
    [
      ar({ participants: 5, ja: 3, nein: 2 }),
      'Angenommen mit 3 Ja- gegen 2 Nein-Stimmen bei 0 Enthaltungen (einfache Mehrheit der abgegebenen Stimmen).',
    ],
    [
      ar({ participants: 8, ja: 5, nein: 2, enthaltung: 1 }),
      'Angenommen mit 5 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung (einfache Mehrheit der abgegebenen Stimmen).',
    ],
    [
      ar({ participants: 6, ja: 5, nein: 1 }),
      'Angenommen mit 5 Ja-Stimmen gegen 1 Nein-Stimme bei 0 Enthaltungen (einfache Mehrheit der abgegebenen Stimmen).',
    ],
    [
      ar({ participants: 5, ja: 1, nein: 2, enthaltung: 2 }),
      'Abgelehnt mit 1 Ja-Stimme gegen 2 Nein-Stimmen bei 2 Enthaltungen (einfache Mehrheit der abgegebenen Stimmen, erforderlich: 2 Ja-Stimmen).',
    ],
    [
      ar({ participants: 5, ja: 1, nein: 1, enthaltung: 3, tie: 'chair', chairVote: 'ja' }),
      'Angenommen bei Stimmengleichheit durch die Stimme des Vorsitzes mit 1 Ja- gegen 1 Nein-Stimme bei 3 Enthaltungen (einfache Mehrheit der abgegebenen Stimmen).',
    ],
    [
      ar({ participants: 5, ja: 2, nein: 2, enthaltung: 1, tie: 'chair', chairVote: 'enthaltung' }),
      'Abgelehnt bei Stimmengleichheit mit 2 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung: der Vorsitz, dessen Stimme entscheidet, hat nicht mit Ja gestimmt (einfache Mehrheit der abgegebenen Stimmen).',
    ],
    [
      ar({ members: 7, participants: 4, ja: 2, nein: 2 }),
      'Abgelehnt bei Stimmengleichheit mit 2 Ja- gegen 2 Nein-Stimmen bei 0 Enthaltungen (einfache Mehrheit der abgegebenen Stimmen; Stimmengleichheit bedeutet Ablehnung).',
    ],
    [
      satzung({ ja: 14, nein: 6 }),
      'Abgelehnt mit 14 Ja- gegen 6 Nein-Stimmen bei 0 Enthaltungen (Drei-Viertel-Mehrheit der abgegebenen Stimmen, erforderlich: 15 Ja-Stimmen).',
    ],
    [
      ar({ participants: 9, ja: 4, nein: 3, enthaltung: 2, abstentionsCount: true }),
      'Abgelehnt mit 4 Ja- gegen 3 Nein-Stimmen bei 2 Enthaltungen (einfache Mehrheit der abgegebenen Stimmen, Enthaltungen zählen mit, erforderlich: 5 Ja-Stimmen).',
    ],
    [
      ar({ basis: 'members', participants: 7, ja: 5, nein: 2 }),
      'Angenommen mit 5 Ja- gegen 2 Nein-Stimmen bei 0 Enthaltungen (einfache Mehrheit der Mitglieder).',
    ],
    [
      ar({ participants: 5, enthaltung: 5, tie: 'chair', chairVote: 'enthaltung' }),
      'Abgelehnt mit 0 Ja- gegen 0 Nein-Stimmen bei 5 Enthaltungen (einfache Mehrheit der abgegebenen Stimmen, erforderlich: 1 Ja-Stimme).',
    ],
    [
      ar({ participants: 4, ja: 4 }),
      'Nicht beschlussfähig: 4 von 9 Mitgliedern haben teilgenommen, erforderlich sind mindestens 5 (mehr als die Hälfte der Mitglieder).',
    ],
    [
      ar({ members: 1, participants: 0 }),
      'Nicht beschlussfähig: 0 von 1 Mitglied haben teilgenommen, erforderlich ist mindestens 1 (mehr als die Hälfte der Mitglieder).',
    ],
    [
      ar({ members: 3, quorum: 'two_thirds', participants: 1, ja: 1 }),
      'Nicht beschlussfähig: 1 von 3 Mitgliedern hat teilgenommen, erforderlich sind mindestens 2 (mindestens zwei Drittel der Mitglieder).',
    ],
    [
      ar({ conflicted: 1, participants: 5, ja: 3, nein: 1 }),
      'Angenommen mit 3 Ja-Stimmen gegen 1 Nein-Stimme bei 0 Enthaltungen (einfache Mehrheit der abgegebenen Stimmen). 1 Mitglied hat wegen eines Interessenkonflikts nicht mitgestimmt.',
    ],
    [
      ar({ conflicted: 2, participants: 4, ja: 3, nein: 1 }),
      'Nicht beschlussfähig: 4 von 9 Mitgliedern haben teilgenommen, erforderlich sind mindestens 5 (mehr als die Hälfte der Mitglieder). 2 Mitglieder haben wegen eines Interessenkonflikts nicht mitgestimmt.',
    ],
  ])('reason: %o', (input, reason) => {
    expect(tally(input).reason).toBe(reason);
  });

  it('labels the outcomes in German', () => {
    expect(OUTCOME_LABELS).toEqual({
      angenommen: 'Angenommen',
      abgelehnt: 'Abgelehnt',
      nicht_beschlussfaehig: 'Nicht beschlussfähig',
    });
    expect(Object.keys(OUTCOME_LABELS)).toEqual([...TALLY_OUTCOMES]);
  });

  it.each<[string, Partial<TallyInput>, RegExp]>([
    ['a negative count', { ja: -1 }, /ja muss eine ganze Zahl ab 0 sein/],
    ['a fraction', { participants: 5.5 }, /participants muss eine ganze Zahl/],
    ['NaN', { members: Number.NaN }, /members muss eine ganze Zahl/],
    ['more participants than members', { participants: 10 }, /mehr Teilnehmende als Mitglieder/],
    ['more votes than participants', { participants: 4 }, /mehr Stimmen als Teilnehmende/],
    ['more conflicted than members', { members: 9, conflicted: 10 }, /mehr befangene Mitglieder/],
    [
      'more votes than members without a conflict',
      { conflicted: 2, participants: 9, ja: 6 },
      /mehr Stimmen als stimmberechtigte/,
    ],
    ['a chair vote the count does not hold', { nein: 0, chairVote: 'nein' }, /Stimme des Vorsitzes/],
  ])('refuses inconsistent counts: %s', (_name, overrides, message) => {
    const input = ar({ participants: 5, ja: 3, nein: 2, ...overrides });
    expect(() => tally(input)).toThrow(RangeError);
    expect(() => tally(input)).toThrow(message);
  });

  it('loads no zod: the module imports only types', () => {
    const source = readFileSync(new URL('../../../../contracts/src/tally.ts', import.meta.url), 'utf8');
    const imports = source.split('\n').filter((line) => /^\s*(import|export)\b.*\bfrom\b/.test(line));
    expect(imports.length).toBeGreaterThan(0);
    for (const line of imports) expect(line).toMatch(/^import type /);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const CHOICES = ['ja', 'nein', 'enthaltung'] as const satisfies readonly Choice[];

/** Any consistent count: small electorates (0 included) often, larger ones sometimes. */
const validInput: fc.Arbitrary<TallyInput> = fc
  .record({
    members: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 40 })),
    r: fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.nat(), fc.nat()),
    chairPick: fc.option(fc.constantFrom(...CHOICES)),
    quorum: fc.constantFrom(...QUORUM_RULES),
    majority: fc.constantFrom(...MAJORITY_RULES),
    basis: fc.constantFrom(...MAJORITY_BASES),
    abstentionsCount: fc.boolean(),
    tie: fc.constantFrom(...TIE_RULES),
  })
  .map(({ members, r, chairPick, ...rules }) => {
    const conflicted = r[0] % (members + 1);
    const voting = members - conflicted;
    const ja = r[1] % (voting + 1);
    const nein = r[2] % (voting - ja + 1);
    const enthaltung = r[3] % (voting - ja - nein + 1);
    const cast = ja + nein + enthaltung;
    const participants = cast + (r[4] % (members - cast + 1));
    const counts = { ja, nein, enthaltung };
    // The chair can only have voted a choice the count holds.
    const chairVote = chairPick && counts[chairPick] > 0 ? chairPick : null;
    return { members, conflicted, ...counts, participants, chairVote, ...rules };
  });

describe('tally: properties', () => {
  it('one more Ja-Stimme never turns Angenommen into Abgelehnt', () => {
    const move = fc.record({ from: fc.constantFrom('new', 'nein', 'enthaltung'), chairMoves: fc.boolean() });
    fc.assert(
      fc.property(validInput, move, (input, { from, chairMoves }) => {
        let after: TallyInput;
        if (from === 'new') {
          // A member who had not voted votes Ja (and takes part, if not yet counted).
          if (input.ja + input.nein + input.enthaltung >= input.members - input.conflicted) return;
          after = {
            ...input,
            ja: input.ja + 1,
            participants: Math.min(input.members, input.participants + 1),
          };
          after.participants = Math.max(after.participants, after.ja + after.nein + after.enthaltung);
        } else {
          // A voter changes a Nein or an abstention to Ja: perhaps the chair.
          if (input[from] === 0) return;
          after = { ...input, [from]: input[from] - 1, ja: input.ja + 1 };
          if (input.chairVote === from && (chairMoves || input[from] === 1)) after.chairVote = 'ja';
        }
        const before = tally(input).outcome;
        const then = tally(after).outcome;
        if (before === 'angenommen') expect(then).toBe('angenommen');
      }),
      { numRuns: 2000 },
    );
  });

  it('with a simple majority of the votes cast, no more Ja than Nein never carries it, unless the chair breaks a tie', () => {
    fc.assert(
      fc.property(validInput, (generated) => {
        const input: TallyInput = {
          ...generated,
          majority: 'simple',
          basis: 'cast',
          abstentionsCount: false,
        };
        fc.pre(input.ja <= input.nein);
        const { outcome } = tally(input);
        const chairBreaksTie = input.tie === 'chair' && input.ja === input.nein && input.chairVote === 'ja';
        expect(outcome === 'angenommen').toBe(chairBreaksTie && input.ja > 0 && tally(input).quorate);
      }),
      { numRuns: 2000 },
    );
  });

  it('a count and its mirror (Ja and Nein swapped) are never both carried', () => {
    const mirrorChoice = (choice: Choice | null | undefined): Choice | null | undefined =>
      choice === 'ja' ? 'nein' : choice === 'nein' ? 'ja' : choice;
    fc.assert(
      fc.property(validInput, (input) => {
        const mirror = { ...input, ja: input.nein, nein: input.ja, chairVote: mirrorChoice(input.chairVote) };
        expect([tally(input).outcome, tally(mirror).outcome]).not.toEqual(['angenommen', 'angenommen']);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts in whole numbers, also for an empty electorate, and agrees with `required`', () => {
    fc.assert(
      fc.property(validInput, (input) => {
        const result = tally(input);
        expect(Number.isSafeInteger(result.required)).toBe(true);
        expect(Number.isSafeInteger(result.counted)).toBe(true);
        expect(result.required).toBeGreaterThanOrEqual(1);
        expect(result.reason).not.toMatch(/NaN|undefined|null|Infinity|\d\.\d/);
        expect(TALLY_OUTCOMES).toContain(result.outcome);
        // The quorum by cross-multiplication.
        const { members: m, participants: p } = input;
        const quorate = {
          more_than_half: 2 * p > m,
          at_least_half: 2 * p >= m,
          two_thirds: 3 * p >= 2 * m,
          none: true,
        };
        expect(result.quorate).toBe(quorate[input.quorum]);
        expect(result.outcome === 'nicht_beschlussfaehig').toBe(!result.quorate);
        // The base.
        const cast = input.ja + input.nein + (input.abstentionsCount ? input.enthaltung : 0);
        expect(result.counted).toBe(input.basis === 'members' ? input.members : cast);
        // `required` is the least number of Ja-Stimmen that carries it with this base.
        const carries = (ja: number, base: number) =>
          base > 0 &&
          { simple: 2 * ja > base, two_thirds: 3 * ja >= 2 * base, three_quarters: 4 * ja >= 3 * base }[
            input.majority
          ];
        if (result.counted > 0) {
          expect(carries(result.required, result.counted)).toBe(true);
          expect(carries(result.required - 1, result.counted)).toBe(false);
        }
        // Apart from a tie the chair breaks, it is carried exactly with enough Ja-Stimmen.
        const tie = input.majority === 'simple' && result.counted > 0 && 2 * input.ja === result.counted;
        if (result.quorate && !(tie && input.tie === 'chair')) {
          expect(result.outcome === 'angenommen').toBe(input.ja >= result.required && result.counted > 0);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('writes German with the right singular and plural', () => {
    const noun = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    fc.assert(
      fc.property(validInput, (input) => {
        const { reason, quorate } = tally(input);
        // No "1 Ja-Stimmen", "2 Enthaltung", "1 Mitgliedern" …
        expect(reason).not.toMatch(
          /(?<!\d)1 (Ja-Stimmen|Nein-Stimmen|Enthaltungen|Mitglieder|Mitgliedern)(?![\p{L}-])/u,
        );
        expect(reason).not.toMatch(
          /(?<!\d)(?!1 )\d+ (Ja-Stimme|Nein-Stimme|Enthaltung|Mitglied)(?![\p{L}-])/u,
        );
        // "5 Ja- gegen 2 Nein-Stimmen" only when both numbers take the same form.
        for (const [, a, b] of reason.matchAll(/(\d+) Ja- gegen (\d+) Nein-Stimme/g)) {
          expect(a === '1').toBe(b === '1');
        }
        // The verbs agree with their numbers.
        for (const [, n, verb] of reason.matchAll(
          /(\d+) von \d+ Mitglied(?:ern)? (hat|haben) teilgenommen/g,
        )) {
          expect(verb).toBe(n === '1' ? 'hat' : 'haben');
        }
        for (const [, verb, n] of reason.matchAll(/erforderlich (ist|sind) mindestens (\d+)/g)) {
          expect(verb).toBe(n === '1' ? 'ist' : 'sind');
        }
        if (quorate) {
          expect(reason).toContain(`bei ${noun(input.enthaltung, 'Enthaltung', 'Enthaltungen')}`);
          expect(reason).toContain(`gegen ${noun(input.nein, 'Nein-Stimme', 'Nein-Stimmen')}`);
          expect(reason).toMatch(new RegExp(`mit ${input.ja} Ja-(Stimmen?)? gegen`));
          expect(reason).toContain(
            `${MAJORITY_LABELS[input.majority]} ${MAJORITY_BASIS_LABELS[input.basis]}`,
          );
        } else {
          expect(reason).toContain(`von ${noun(input.members, 'Mitglied', 'Mitgliedern')}`);
          expect(reason).toContain(`(${QUORUM_LABELS[input.quorum]})`);
        }
        if (input.conflicted > 0) {
          expect(reason).toContain(
            `${noun(input.conflicted, 'Mitglied hat', 'Mitglieder haben')} wegen eines Interessenkonflikts`,
          );
        } else {
          expect(reason).not.toContain('Interessenkonflikt');
        }
      }),
      { numRuns: 2000 },
    );
  });
});
