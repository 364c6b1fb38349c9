import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { encoderOf, pdfText } from '../../src/book/pdf-text.ts';

/** Text for Helvetica (WinAnsi): what can be encoded stays, the rest is mapped or becomes "?". */
describe('pdfText', () => {
  let canEncode: (codePoint: number) => boolean;
  let encode: (text: string) => unknown;
  beforeAll(async () => {
    const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    canEncode = encoderOf(font.getCharacterSet());
    encode = (text) => font.encodeText(text);
  });

  it.each([
    ['Prüfung der Größe: Maß für Maß', 'Prüfung der Größe: Maß für Maß'],
    ['„Zitat“ – ‚innen‘ — 5 € … • ™', '„Zitat“ – ‚innen‘ — 5 € … • ™'],
    ['Łódź, Dvořák, Ångström, Đakovo, Ørsted', 'Lódz, Dvorák, Ångström, Dakovo, Ørsted'],
    ['Zeile\neins\r\nzwei\tdrei\u2028vier', 'Zeile eins zwei drei vier'],
    ['ohne\u00ADTrenn\u200Bzeichen\uFEFF und \u202Erichtung\u202C', 'ohneTrennzeichen und richtung'],
    ['Emoji 🎉👩‍👩‍👧 und ❤️', 'Emoji ???? und ?'],
    ['会议 Собрание מסמך', '?? ???????? ????'],
    ['lone \uD800 and \uDFFF', 'lone ? and ?'],
    ['a ≤ b → c − d', 'a <= b -> c - d'],
    ['e\u0301 und a\u0308 (zerlegt)', 'é und ä (zerlegt)'],
    ['\u0000\u0007 Steuerzeichen \u007F\u0085', 'Steuerzeichen'],
    ['   viel    Raum   ', 'viel Raum'],
  ])('%j → %j', (input, expected) => {
    const output = pdfText(input, canEncode);
    expect(output).toBe(expected);
    // What comes out, the standard font takes: no throw, whatever went in.
    expect(() => encode(output)).not.toThrow();
  });

  it('gives encodable text for any string', () => {
    let seed = 42;
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (let round = 0; round < 200; round += 1) {
      const input = Array.from({ length: 40 }, () => String.fromCharCode(next() % 0x10000)).join('');
      expect(() => encode(pdfText(input, canEncode)), JSON.stringify(input)).not.toThrow();
    }
  });
});
