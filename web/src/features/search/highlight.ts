/** A piece of a text and whether the query matched it. */
export interface TextPart {
  text: string;
  marked: boolean;
}

/** `[start, end)` offsets into a text, as the search API sends them. */
export type TextRange = readonly [start: number, end: number];

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * Splits `text` into marked and unmarked parts that together are the text once, in order. The
 * ranges come from the server and are not trusted: ranges outside the text are cut to it, reversed,
 * empty and non-numeric ones are dropped, overlapping and touching ones merged. A boundary inside
 * a surrogate pair (an emoji) moves outwards, so no character is split in two.
 */
export function splitByRanges(text: string, ranges: readonly TextRange[] | null | undefined): TextPart[] {
  const clamp = (value: number) => Math.min(Math.max(Math.trunc(value), 0), text.length);
  const startAt = (value: number) => {
    const index = clamp(value);
    return index > 0 && isHighSurrogate(text.charCodeAt(index - 1)) ? index - 1 : index;
  };
  const endAt = (value: number) => {
    const index = clamp(value);
    return index > 0 && index < text.length && isHighSurrogate(text.charCodeAt(index - 1))
      ? index + 1
      : index;
  };

  const sorted = (ranges ?? [])
    .filter(
      (range) =>
        Array.isArray(range) && Number.isFinite(range[0]) && Number.isFinite(range[1]) && range[1] > range[0],
    )
    .map(([start, end]) => [startAt(start), endAt(end)] as [number, number])
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);

  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }

  const parts: TextPart[] = [];
  let position = 0;
  for (const [start, end] of merged) {
    if (start > position) parts.push({ text: text.slice(position, start), marked: false });
    parts.push({ text: text.slice(start, end), marked: true });
    position = end;
  }
  if (position < text.length || parts.length === 0) parts.push({ text: text.slice(position), marked: false });
  return parts;
}
