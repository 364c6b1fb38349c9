import { describe, expect, it } from 'vitest';
import { keyOrder, scoresOf, termMatches } from '../../../src/features/search/term-matches.ts';

/** What the merge must agree with: one look-up per entry. */
const byLookup = (keys: readonly (number | null)[], found: ReadonlyMap<number, number>) =>
  keys.map((key) => (key === null ? Number.NaN : (found.get(key) ?? Number.NaN)));

describe('term matches merged with a list in key order', () => {
  it('gives each entry its text’s score, NaN for entries without the term or without a text', () => {
    const keys = [40, null, 2, 17, 8, null, 3];
    const found = new Map([
      [3, 1.5],
      [8, -2],
      [9, 7],
      [40, 0.25],
      [1, 4],
    ]);
    expect([...scoresOf(keyOrder(keys), termMatches(found), keys.length)]).toEqual(byLookup(keys, found));
  });

  it('handles empty lists and empty matches', () => {
    expect([...scoresOf(keyOrder([]), termMatches(new Map([[2, 1]])), 0)]).toEqual([]);
    expect([...scoresOf(keyOrder([2, null]), termMatches(new Map()), 2)]).toEqual([Number.NaN, Number.NaN]);
  });

  it('agrees with a look-up per entry over generated keys and matches', () => {
    let seed = 5;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let round = 0; round < 20; round += 1) {
      const keys = Array.from({ length: 300 }, (_, index) =>
        next() < 0.1 ? null : index * 2 + (next() < 0.5 ? 1 : 0),
      );
      const found = new Map<number, number>();
      for (let key = 0; key < 700; key += 1) if (next() < 0.3) found.set(key, next() * 10 - 5);
      expect([...scoresOf(keyOrder(keys), termMatches(found), keys.length)]).toEqual(byLookup(keys, found));
    }
  });
});
