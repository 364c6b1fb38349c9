import { describe, expect, it } from 'vitest';
import { TitleIndex } from '../../../src/features/search/title-index.ts';

/** What the index must agree with: one `includes` per title. */
const byIncludes = (titles: readonly string[], term: string) =>
  titles.map((title) => (title.includes(term) ? 1 : 0));

describe('TitleIndex', () => {
  const titles = [
    'bericht 2026',
    '',
    'jahresbericht bericht',
    'protokoll',
    'bericht',
    'berich',
    't bericht',
    'vorlage',
    'b',
  ];
  const index = new TitleIndex(titles);

  it.each(['bericht', 'b', 'berich', 'bericht 2026', 'protokoll', 'vorlage', 't', '2026', 'x', 'ht t'])(
    'finds "%s" in exactly the titles that hold it, never across two titles',
    (term) => {
      expect([...index.hits(term)]).toEqual(byIncludes(titles, term));
    },
  );

  it('matches every title for an empty term, and nothing in an empty list', () => {
    expect([...index.hits('')]).toEqual(titles.map(() => 1));
    expect([...new TitleIndex([]).hits('bericht')]).toEqual([]);
    expect(index.size).toBe(titles.length);
  });

  it('agrees with includes over many generated titles', () => {
    let seed = 11;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const letters = 'abe ';
    const many = Array.from({ length: 500 }, () =>
      Array.from({ length: Math.floor(next() * 12) }, () => letters[Math.floor(next() * 4)]).join(''),
    );
    const generated = new TitleIndex(many);
    for (const term of ['a', 'ab', 'ba', 'e e', 'aaa', 'bab', ' ', 'abea']) {
      expect([...generated.hits(term)]).toEqual(byIncludes(many, term));
    }
  });
});
