import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import * as fontkit from 'fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

/*
 * The Sitzungsmappe's fonts (decision 175): Noto Sans, embedded as a subset of the glyphs a book
 * uses, so names and titles in any Latin, Greek or Cyrillic script appear exactly (Łucja
 * Dvořák-Şahin, Nguyễn Thị) where the standard Helvetica knew only WinAnsi. The subset comes from
 * upstream fontkit: pdf-lib's own fork writes broken TrueType subsets (glyphs shift or vanish).
 * pdf-lib reads a subset as a stream, which fontkit 2 no longer offers; `create` adds it.
 */

const require = createRequire(import.meta.url);
const FILES = {
  regular: require.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf'),
};

/** The font files, read once per process (the book's helper serves book after book). */
let files: Promise<{ regular: Uint8Array; bold: Uint8Array }> | undefined;

function fontFiles(): Promise<{ regular: Uint8Array; bold: Uint8Array }> {
  files ??= Promise.all([readFile(FILES.regular), readFile(FILES.bold)]).then(([regular, bold]) => ({
    regular,
    bold,
  }));
  return files;
}

/**
 * Upstream fontkit in the shape pdf-lib's `registerFontkit` expects. A font file is parsed once
 * per process: its tables (and the glyphs laid out so far) serve every later book; each book
 * still gets a subset of its own.
 */
const parsed = new WeakMap<Uint8Array, fontkit.Font>();
const subsettingFontkit = {
  create(bytes: Uint8Array): fontkit.Font {
    const known = parsed.get(bytes);
    if (known) return known;
    const font = fontkit.create(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    ) as fontkit.Font;
    const createSubset = font.createSubset.bind(font);
    font.createSubset = () => {
      const subset = createSubset();
      return Object.assign(subset, { encodeStream: () => Readable.from([subset.encode()]) });
    };
    // pdf-lib takes only the glyphs of a layout, never their positions, so shaping (four fifths of
    // a book's time) is left out: each character's own glyph, as the cmap has it. That also keeps
    // "ị" one glyph with its code point, where shaping made "i" plus a dot that text extraction lost.
    font.layout = ((text: string) => ({
      glyphs: font.glyphsForString(text),
    })) as unknown as fontkit.Font['layout'];
    parsed.set(bytes, font);
    return font;
  },
};

/**
 * A subset font's name starts with six capital letters and "+" (ISO 32000-1, 9.6.4), which tells
 * readers that only some glyphs are inside.
 */
const SUBSET_TAG = 'GPMAPP+';

export async function embedBookFonts(doc: PDFDocument): Promise<{ regular: PDFFont; bold: PDFFont }> {
  const { regular, bold } = await fontFiles();
  doc.registerFontkit(subsettingFontkit as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  const options = (name: string) => ({ subset: true, customName: SUBSET_TAG + name });
  return {
    regular: await doc.embedFont(regular, options('NotoSans-Regular')),
    bold: await doc.embedFont(bold, options('NotoSans-Bold')),
  };
}
