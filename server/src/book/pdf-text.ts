/*
 * Text for a font that lacks some characters: every text drawn into the Sitzungsmappe passes
 * through `pdfText` with the characters its fonts have (decisions 130, 175), so a title with an
 * emoji or CJK characters still gives a readable book instead of empty boxes, and a standard
 * font (WinAnsi only) would not throw. Bookmarks and the document title are PDF text strings
 * (UTF-16) and keep the original characters.
 */

/** Characters a font may lack, with a close stand-in that fonts usually have. */
const STAND_INS: Record<string, string> = {
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2015': '–',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
  '\u2044': '/',
  '\u2190': '<-',
  '\u2192': '->',
  '\u2194': '<->',
  '\u21D2': '=>',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2248': '~',
  '\u2022': '•',
  '\u2023': '•',
  '\u2043': '-',
  '\u25CF': '•',
  '\u2713': 'x',
  '\u2714': 'x',
  '\u2717': 'x',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  ŧ: 't',
  Ŧ: 'T',
  ŀ: 'l',
  Ŀ: 'L',
  ĸ: 'k',
  ŉ: "'n",
  ſ: 's',
  Ə: 'E',
  ə: 'e',
};

/** Dropped without a trace: soft hyphens, zero-width and direction marks, variation selectors, BOM. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
/** Control characters, line and paragraph breaks and unusual spaces: one plain space each. */
const SPACE_LIKE = /[\p{Cc}\p{Zl}\p{Zp}\p{Zs}]/u;
/** Combining marks left after canonical decomposition (ő → o + ˝). */
const COMBINING = /\p{M}/u;
const UNKNOWN = '?';

/**
 * `text` as the standard fonts can encode it: kept where `canEncode` allows, else a stand-in,
 * else the base letter of a decomposed character (ő → o, ș → s), else one "?" per unknown
 * character (lone surrogates, emoji, scripts WinAnsi lacks). Runs of white space become one space;
 * the result is trimmed.
 */
export function pdfText(text: string, canEncode: (codePoint: number) => boolean): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const codePoint = char.codePointAt(0)!;
    if (INVISIBLE.test(char)) continue;
    if (SPACE_LIKE.test(char)) {
      out += ' ';
    } else if (canEncode(codePoint)) {
      out += char;
    } else if (STAND_INS[char] !== undefined) {
      out += STAND_INS[char];
    } else {
      const base = [...char.normalize('NFD')].filter((part) => !COMBINING.test(part)).join('');
      const usable = base.length > 0 && [...base].every((part) => canEncode(part.codePointAt(0)!));
      out += usable ? base : COMBINING.test(char) ? '' : UNKNOWN;
    }
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/**
 * The encodable code points of a standard font, from pdf-lib's `getCharacterSet()`. Control
 * characters are left out even where the encoding lists them, so they never reach a page.
 */
export function encoderOf(characterSet: readonly number[]): (codePoint: number) => boolean {
  const supported = new Set(characterSet.filter((codePoint) => codePoint >= 0x20 && codePoint !== 0x7f));
  return (codePoint) => supported.has(codePoint);
}
