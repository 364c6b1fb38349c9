/* Plain text helpers of the extraction: decoding text files, whitespace, the size cut. */

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Formats whose bytes are the text itself. */
export const TEXT_FORMATS: ReadonlySet<string> = new Set(['txt', 'csv']);

/**
 * How many leading bytes of a file the extraction needs. Whitespace aside, a text file yields
 * about as many bytes of text as it has, so twice the text limit is plenty and a huge log file
 * costs no more than that; every other format is parsed whole.
 */
export function bytesToRead(format: string, size: number, maxTextBytes: number): number {
  return TEXT_FORMATS.has(format) ? Math.min(size, maxTextBytes * 2) : size;
}

/**
 * Bytes of a TXT or CSV file as text: UTF-8 (with or without BOM), UTF-16 with BOM, else
 * windows-1252, which older German Windows programs write. `complete` is false when only a
 * prefix was read, so a character cut at its end does not count as invalid UTF-8.
 */
export function decodeText(bytes: Uint8Array, complete: boolean): string {
  if (startsWith(bytes, UTF8_BOM)) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (startsWith(bytes, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (startsWith(bytes, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: !complete });
  } catch {
    return decodeWindows1252(bytes);
  }
}

// Node 20's TextDecoder('windows-1252') decoded as ISO-8859-1 and turned € and the curly quotes
// (0x80-0x9f) into control characters, so that range is mapped here (Node 24 decodes it right; the
// result is the same); the five unassigned bytes stay C1 controls, as the WHATWG table has them.
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

/**
 * One space for every run of blanks, one newline for every run of line and paragraph breaks.
 * Control characters go (PostgreSQL text cannot hold NUL), and so do soft hyphens and zero-width
 * marks, which would split a word for the search; lone surrogates become U+FFFD.
 */
export function normaliseWhitespace(text: string): string {
  return (
    text
      .replace(/\r\n?|[\v\f\u0085\u2028\u2029]/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g, ' ')
      .replace(/[\u00ad\u200b-\u200d\u2060\ufeff]/g, '')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
      .replace(/[^\S\n]+/g, ' ')
      .replace(/ ?\n[\s]*/g, '\n')
      .trim()
  );
}

/** The longest prefix of `text` whose UTF-8 form fits in `maxBytes`, cut between characters. */
export function cutToBytes(text: string, maxBytes: number): string {
  // A UTF-16 code unit takes at most three UTF-8 bytes, so short texts need no encoding.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the character that was cut.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
