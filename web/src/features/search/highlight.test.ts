import { describe, expect, it } from 'vitest';
import { splitByRanges, type TextRange } from './highlight';

const joined = (text: string, ranges: readonly TextRange[]) =>
  splitByRanges(text, ranges)
    .map((part) => part.text)
    .join('');

describe('splitByRanges', () => {
  it('marks the given ranges and keeps the text between them', () => {
    expect(
      splitByRanges('Protokoll der Sitzung im März', [
        [0, 9],
        [14, 21],
      ]),
    ).toEqual([
      { text: 'Protokoll', marked: true },
      { text: ' der ', marked: false },
      { text: 'Sitzung', marked: true },
      { text: ' im März', marked: false },
    ]);
  });

  it('returns the whole text unmarked without ranges, and one empty part for an empty text', () => {
    expect(splitByRanges('Haushalt', [])).toEqual([{ text: 'Haushalt', marked: false }]);
    expect(splitByRanges('Haushalt', null)).toEqual([{ text: 'Haushalt', marked: false }]);
    expect(splitByRanges('', [[0, 3]])).toEqual([{ text: '', marked: false }]);
  });

  it('merges overlapping, nested, touching and repeated ranges without repeating text', () => {
    const text = 'Vertreterversammlung';
    const ranges: TextRange[] = [
      [5, 12],
      [0, 9],
      [2, 4],
      [12, 14],
      [0, 9],
    ];
    expect(splitByRanges(text, ranges)).toEqual([
      { text: 'Vertreterversa', marked: true },
      { text: 'mmlung', marked: false },
    ]);
    expect(joined(text, ranges)).toBe(text);
  });

  it('cuts ranges to the text and drops reversed, empty and unreadable ones', () => {
    const text = 'Bilanz';
    const ranges = [
      [-5, 2],
      [4, 99],
      [3, 3],
      [5, 1],
      [100, 120],
      [Number.NaN, 2],
      [1, Number.POSITIVE_INFINITY],
    ] as TextRange[];
    expect(splitByRanges(text, ranges)).toEqual([
      { text: 'Bi', marked: true },
      { text: 'la', marked: false },
      { text: 'nz', marked: true },
    ]);
    expect(joined(text, ranges)).toBe(text);
  });

  it('never splits a character made of two code units', () => {
    // "🙂" is two UTF-16 code units: a range ending or starting inside it takes it whole.
    expect(splitByRanges('a🙂b', [[0, 2]])).toEqual([
      { text: 'a🙂', marked: true },
      { text: 'b', marked: false },
    ]);
    expect(splitByRanges('a🙂b', [[2, 4]])).toEqual([
      { text: 'a', marked: false },
      { text: '🙂b', marked: true },
    ]);
  });

  it('rounds fractional offsets towards zero', () => {
    expect(splitByRanges('Etat', [[0.9, 2.5]])).toEqual([
      { text: 'Et', marked: true },
      { text: 'at', marked: false },
    ]);
  });
});
