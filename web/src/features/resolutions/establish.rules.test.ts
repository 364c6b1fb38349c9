import { describe, expect, it } from 'vitest';
import { previewTally } from './establish.rules';
import { electorEntry, makeMotion } from './components/motion-fixtures';

const RULES = { abstentions_count: false, tie: 'rejected' as const };
const electorate = (voted: number, total: number) =>
  Array.from({ length: total }, (_, index) =>
    electorEntry(index + 1, `Mitglied ${index + 1}`, { voted: index < voted }),
  );

const closed = (counts: { ja: number; nein: number; enthaltung: number }, voted: number, total: number) =>
  makeMotion({ state: 'geschlossen', counts, electorate: electorate(voted, total) });

describe('previewTally', () => {
  it('counts a closed motion by the committee’s rules, as the Feststellung will', () => {
    const preview = previewTally(closed({ ja: 4, nein: 2, enthaltung: 1 }, 7, 9), RULES);
    expect(preview).toMatchObject({ kind: 'tally', tally: { outcome: 'angenommen' } });
    expect(preview.kind === 'tally' && preview.tally.reason).toBe(
      'Angenommen mit 4 Ja- gegen 2 Nein-Stimmen bei 1 Enthaltung (einfache Mehrheit der abgegebenen Stimmen).',
    );
  });

  it('adds the hand counts to who took part, for the quorum', () => {
    const motion = makeMotion({
      state: 'geschlossen',
      counts: { ja: 5, nein: 0, enthaltung: 0 },
      hand_count: { ja: 4, nein: 0, enthaltung: 0 },
      electorate: electorate(1, 9),
    });
    expect(previewTally(motion, RULES)).toMatchObject({
      kind: 'tally',
      tally: { outcome: 'angenommen', quorate: true },
    });
    const fewer = {
      ...motion,
      hand_count: { ja: 3, nein: 0, enthaltung: 0 },
      counts: { ja: 4, nein: 0, enthaltung: 0 },
    };
    expect(previewTally(fewer, RULES)).toMatchObject({ tally: { outcome: 'nicht_beschlussfaehig' } });
  });

  it('leaves a tie that the Vorsitz’s vote decides to the Feststellung', () => {
    const tie = closed({ ja: 3, nein: 3, enthaltung: 0 }, 6, 7);
    expect(previewTally(tie, { ...RULES, tie: 'chair' })).toEqual({ kind: 'chair-decides' });
    expect(previewTally(tie, RULES)).toMatchObject({ tally: { outcome: 'abgelehnt' } });
  });

  it('shows nothing without the numbers, the rules or the delivery table, or for numbers the count refuses', () => {
    expect(previewTally(makeMotion(), RULES)).toEqual({ kind: 'none' });
    expect(previewTally(closed({ ja: 1, nein: 0, enthaltung: 0 }, 1, 3), undefined)).toEqual({
      kind: 'none',
    });
    expect(
      previewTally({ ...closed({ ja: 1, nein: 0, enthaltung: 0 }, 1, 3), electorate: null }, RULES),
    ).toEqual({
      kind: 'none',
    });
    expect(previewTally(closed({ ja: 5, nein: 0, enthaltung: 0 }, 2, 3), RULES)).toEqual({ kind: 'none' });
  });
});
