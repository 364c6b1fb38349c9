/**
 * German matching (decision 128): both the indexed text and the query are folded the same way, so
 * case, umlauts and their spelled-out forms and other accents do not matter ("Maerz" finds
 * "März", "MÄRZ" and "maerz"). Parts of words are found by substring (trigram) matching.
 */
const UMLAUTS: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', ẞ: 'ss' };

/** Lower case, umlauts spelled out, other accents dropped, whitespace single spaces. */
export function fold(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[äöüßẞ]/g, (ch) => UMLAUTS[ch]!)
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/\s+/g, ' ');
}

/** One thing to find: a word (or part of one) or a "phrase in quotes", folded. */
export interface SearchTerm {
  folded: string;
  phrase: boolean;
}

/** Terms the trigram index can look up: at least 3 characters. Shorter ones match titles only. */
export const INDEXABLE_LENGTH = 3;

/** The query's terms: quoted phrases whole, other words one by one; duplicates once. */
export function parseQuery(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const seen = new Set<string>();
  const add = (raw: string, phrase: boolean) => {
    // Punctuation around words ("Bericht," or "(2026)") is not part of what is sought.
    const folded = fold(raw)
      .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
      .trim();
    if (folded.length === 0 || seen.has(folded)) return;
    seen.add(folded);
    terms.push({ folded, phrase });
  };
  const pattern = /"([^"]*)"|„([^“”"]*)[“”"]|(\S+)/g;
  for (const match of query.matchAll(pattern)) {
    const phrase = match[1] ?? match[2];
    if (phrase !== undefined) add(phrase, phrase.trim().includes(' '));
    else add(match[3]!, false);
  }
  return terms;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Precomposed Latin letters per base letter ("e" → "éèêë…"), so patterns match them as written. */
const VARIANTS: ReadonlyMap<string, string> = (() => {
  const variants = new Map<string, string>();
  for (let codePoint = 0xc0; codePoint <= 0x24f; codePoint += 1) {
    const letter = String.fromCodePoint(codePoint);
    if (/[äöüÄÖÜßẞ]/.test(letter)) continue;
    const base = letter
      .normalize('NFD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase();
    if (/^[a-z]$/.test(base)) variants.set(base, (variants.get(base) ?? '') + letter);
  }
  return variants;
})();

const UMLAUT_OF: Record<string, string> = { ae: 'äÄ', oe: 'öÖ', ue: 'üÜ' };

/**
 * A pattern that finds a folded term in the original text as written: any case, accented letters
 * as their base letter, "ae" also as "ä" (and so on), a space as any run of whitespace.
 */
function originalPattern(folded: string): string {
  let pattern = '';
  for (let i = 0; i < folded.length; i += 1) {
    const pair = folded.slice(i, i + 2);
    if (UMLAUT_OF[pair]) {
      pattern += `(?:${pair}|[${UMLAUT_OF[pair]}]|${pair[0]}\u0308)`;
      i += 1;
      continue;
    }
    if (pair === 'ss') {
      pattern += '(?:ss|[ßẞ])';
      i += 1;
      continue;
    }
    const ch = folded[i]!;
    if (ch === ' ') pattern += '\\s+';
    else if (/[a-z]/.test(ch)) pattern += `[${ch}${VARIANTS.get(ch) ?? ''}]\\p{M}*`;
    else pattern += escapeRegExp(ch);
  }
  return pattern;
}

const patterns = new Map<string, RegExp>();
/** One compiled pattern per term (terms repeat: the same query by many members). */
function patternOf(term: SearchTerm): RegExp {
  let regex = patterns.get(term.folded);
  if (!regex) {
    regex = new RegExp(originalPattern(term.folded), 'giu');
    if (patterns.size > 1000) patterns.clear();
    patterns.set(term.folded, regex);
  }
  regex.lastIndex = 0;
  return regex;
}

/** The `[start, end)` ranges where the terms occur in `text` (its own spelling), sorted and merged. */
export function matchRanges(text: string, terms: readonly SearchTerm[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const term of terms) {
    for (const match of text.matchAll(patternOf(term))) {
      if (match[0].length === 0) continue;
      ranges.push([match.index, match.index + match[0].length]);
      if (ranges.length > 200) break;
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** Where the first of the terms occurs in `text`, or null. */
function firstMatch(text: string, terms: readonly SearchTerm[]): [number, number] | null {
  let first: [number, number] | null = null;
  for (const term of terms) {
    const match = patternOf(term).exec(text);
    if (match && match[0].length > 0 && (!first || match.index < first[0])) {
      first = [match.index, match.index + match[0].length];
    }
  }
  return first;
}

/** About this many characters around the first match. */
const SNIPPET_LENGTH = 180;

/** A piece of `text` around the first match, cut at word boundaries, with the ranges inside it. */
export function snippetOf(
  text: string,
  terms: readonly SearchTerm[],
): { text: string; ranges: [number, number][] } | null {
  const first = firstMatch(text, terms);
  if (!first) return null;
  let start = Math.max(0, first[0] - Math.floor(SNIPPET_LENGTH / 3));
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space !== -1 && space < first[0]) start = space + 1;
  }
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > first[1]) end = space;
  }
  const prefix = start > 0 ? '… ' : '';
  const suffix = end < text.length ? ' …' : '';
  const piece = text.slice(start, end).replace(/\s+/g, ' ');
  // Whitespace runs became single spaces: find the ranges again in the piece itself.
  const body = `${prefix}${piece}${suffix}`;
  return { text: body, ranges: matchRanges(body, terms) };
}
