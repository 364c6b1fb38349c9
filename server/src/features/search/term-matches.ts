import type { ContentKey } from './search.repository.ts';

/**
 * A term's matches in the indexed texts, ordered by content key: merged with a list's entries in
 * one pass instead of one `Map` look-up per term and entry (decision 143).
 */
export interface TermMatches {
  /** Content keys, ascending. */
  keys: Float64Array;
  /** The score of each key's text (higher is better). */
  scores: Float64Array;
}

export function termMatches(found: ReadonlyMap<ContentKey, number>): TermMatches {
  const keys = Float64Array.from(found.keys()).sort();
  return { keys, scores: keys.map((key) => found.get(key)!) };
}

/** A list's entries that have a text, ordered by content key. */
export interface KeyOrder {
  /** Content keys, ascending. */
  keys: Float64Array;
  /** The index in the list of the entry with each key. */
  entries: Int32Array;
}

export function keyOrder(keys: readonly (ContentKey | null)[]): KeyOrder {
  const withText = keys.flatMap((key, index) => (key === null ? [] : [index]));
  withText.sort((a, b) => keys[a]! - keys[b]!);
  return {
    keys: Float64Array.from(withText, (index) => keys[index]!),
    entries: Int32Array.from(withText),
  };
}

/** For each of `size` entries, the term's score in its text, or NaN when its text lacks the term. */
export function scoresOf(order: KeyOrder, matches: TermMatches, size: number): Float64Array {
  const scores = new Float64Array(size).fill(Number.NaN);
  const found = matches.keys;
  let at = 0;
  for (let i = 0; i < order.keys.length && at < found.length; i += 1) {
    const key = order.keys[i]!;
    while (at < found.length && found[at]! < key) at += 1;
    if (found[at] === key) scores[order.entries[i]!] = matches.scores[at]!;
  }
  return scores;
}
