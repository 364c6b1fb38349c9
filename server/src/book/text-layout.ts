import type { PDFDocument, PDFFont } from 'pdf-lib';
import { embedBookFonts } from './book-fonts.ts';
import { encoderOf, pdfText } from './pdf-text.ts';

/** The book's two fonts and the text mapping that makes any text safe for them. */
export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  /** `pdfText` for the characters both fonts have. */
  clean(text: string): string;
}

export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const { regular, bold } = await embedBookFonts(doc);
  const inBold = encoderOf(bold.getCharacterSet());
  const inRegular = encoderOf(regular.getCharacterSet());
  const canEncode = (codePoint: number) => inRegular(codePoint) && inBold(codePoint);
  return { regular, bold, clean: (text) => pdfText(text, canEncode) };
}

const ELLIPSIS = '…';

/** The longest start of `text` that fits `width`, with "…" when something was cut. */
export function truncate(text: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(text, size) <= width) return text;
  const chars = [...text];
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const candidate = `${chars.slice(0, middle).join('').trimEnd()}${ELLIPSIS}`;
    if (font.widthOfTextAtSize(candidate, size) <= width) low = middle;
    else high = middle - 1;
  }
  return low === 0 ? ELLIPSIS : `${chars.slice(0, low).join('').trimEnd()}${ELLIPSIS}`;
}

/** Words too long for a line are broken between characters. */
function breakWord(word: string, font: PDFFont, size: number, width: number): string[] {
  const parts: string[] = [];
  let part = '';
  for (const char of word) {
    if (part !== '' && font.widthOfTextAtSize(part + char, size) > width) {
      parts.push(part);
      part = '';
    }
    part += char;
  }
  if (part !== '') parts.push(part);
  return parts;
}

/**
 * `text` (already clean) in lines no wider than `width`; at most `maxLines`, the last one cut
 * with "…" when more would follow. An empty text is one empty line.
 */
export function wrap(
  text: string,
  font: PDFFont,
  size: number,
  width: number,
  maxLines = Infinity,
): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').flatMap((w) => breakWord(w, font, size, width))) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = truncate(`${kept[maxLines - 1]} ${ELLIPSIS}`, font, size, width);
  return kept;
}
