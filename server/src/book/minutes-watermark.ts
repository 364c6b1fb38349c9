import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import { degrees, drawSvgPath, grayscale, type PDFOperator, type PDFPage } from 'pdf-lib';
import { A4, TOP } from './flow.ts';
import type { Styles } from './minutes-layout.ts';

/* The draft's "ENTWURF": a small text mark on top of every page and a large diagonal outline. */

const require = createRequire(import.meta.url);
const BOLD_FILE = require.resolve('@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf');
const MARK_SIZE = 11;
const MARK_GRAY = grayscale(0.45);
const DIAGONAL_GRAY = grayscale(0.88);

/** The outlines of `text` in Noto Sans Bold as an SVG path (font units, y downwards), per process. */
const outlines = new Map<string, Promise<{ path: string; width: number; capHeight: number }>>();

function outlineOf(text: string) {
  let known = outlines.get(text);
  if (!known) {
    known = readFile(BOLD_FILE).then((bytes) => {
      const font = fontkit.create(bytes) as fontkit.Font;
      const letters = { moveTo: 'M', lineTo: 'L', quadraticCurveTo: 'Q', bezierCurveTo: 'C', closePath: 'Z' };
      const parts: string[] = [];
      let x = 0;
      for (const glyph of font.glyphsForString(text)) {
        for (const { command, args } of glyph.path.commands) {
          const points = args.map((value, index) => (index % 2 === 0 ? value + x : -value));
          parts.push(`${letters[command]}${points.map((value) => Math.round(value)).join(' ')}`);
        }
        x += glyph.advanceWidth;
      }
      return { path: parts.join(''), width: x, capHeight: font.capHeight };
    });
    outlines.set(text, known);
  }
  return known;
}

/**
 * The draft's marks for every page: `text` in bold at the top, which text extraction finds, and
 * large and light across the page's diagonal as outlines, not text, so it never runs into the
 * page's text when that is copied or searched. Drawn first, under everything else.
 */
export async function watermark(text: string, styles: Styles): Promise<(page: PDFPage) => void> {
  const { path, width, capHeight } = await outlineOf(text);
  const [pageWidth, pageHeight] = A4;
  const angle = Math.atan2(pageHeight, pageWidth);
  const scale = (0.62 * Math.hypot(pageWidth, pageHeight)) / width;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const [length, height] = [width * scale, capHeight * scale];
  // The same operators on every page: one outline, placed once.
  const diagonal: PDFOperator[] = drawSvgPath(path, {
    x: pageWidth / 2 - (length / 2) * cos + (height / 2) * sin,
    y: pageHeight / 2 - (length / 2) * sin - (height / 2) * cos,
    scale,
    rotate: degrees((angle * 180) / Math.PI),
    color: DIAGONAL_GRAY,
    borderColor: undefined,
    borderWidth: 0,
  });
  const font = styles.base.bold;
  const top = styles.clean(text);
  const topWidth = font.widthOfTextAtSize(top, MARK_SIZE);
  return (page) => {
    page.pushOperators(...diagonal);
    page.drawText(top, {
      x: (pageWidth - topWidth) / 2,
      y: TOP + 30,
      size: MARK_SIZE,
      font,
      color: MARK_GRAY,
    });
  };
}
