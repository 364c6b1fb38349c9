import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { grayscale, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import { LEFT, RIGHT, TOP } from './flow.ts';
import type { Span } from './markdown-blocks.ts';
import { encoderOf, pdfText } from './pdf-text.ts';
import { embedFonts, type Fonts } from './text-layout.ts';

/*
 * The Niederschrift's page layout: lines of styled runs (regular, bold, italic and bold italic
 * Noto Sans, so any name appears exactly), placed on A4 pages before anything is drawn, so that
 * the number of pages is known and a heading never ends a page without the first lines after it;
 * resolutions in frames that continue over a page break. The draft's mark: minutes-watermark.ts.
 */

// -- Fonts -------------------------------------------------------------------------------------

const require = createRequire(import.meta.url);
const ITALIC_FILES = [
  require.resolve('@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf'),
  require.resolve('@expo-google-fonts/noto-sans/700Bold_Italic/NotoSans_700Bold_Italic.ttf'),
] as const;
/** Read once per process; the same bytes let the book's fontkit reuse its parse of them. */
let italicFiles: Promise<Uint8Array[]> | undefined;

export interface Styles {
  base: Fonts;
  italic: PDFFont;
  boldItalic: PDFFont;
  /** `pdfText` for the characters all four fonts have. */
  clean(text: string): string;
}

export async function embedStyles(doc: PDFDocument): Promise<Styles> {
  const base = await embedFonts(doc); // also registers the book's subsetting fontkit
  italicFiles ??= Promise.all(ITALIC_FILES.map((file) => readFile(file)));
  const [italicBytes, boldItalicBytes] = await italicFiles;
  const embed = (bytes: Uint8Array, name: string) =>
    doc.embedFont(bytes, { subset: true, customName: `GPMAPP+${name}` });
  const italic = await embed(italicBytes!, 'NotoSans-Italic');
  const boldItalic = await embed(boldItalicBytes!, 'NotoSans-BoldItalic');
  const encoders = [base.regular, base.bold, italic, boldItalic].map((font) =>
    encoderOf(font.getCharacterSet()),
  );
  const canEncode = (codePoint: number) => encoders.every((inFont) => inFont(codePoint));
  return { base, italic, boldItalic, clean: (text) => pdfText(text, canEncode) };
}

const fontOf = (styles: Styles, span: Pick<Span, 'bold' | 'italic'>) =>
  span.bold
    ? span.italic
      ? styles.boldItalic
      : styles.base.bold
    : span.italic
      ? styles.italic
      : styles.base.regular;

// -- Lines -------------------------------------------------------------------------------------

/** Text in one font, `dx` from the line's left edge. */
interface Run {
  text: string;
  font: PDFFont;
  dx: number;
}
type Line = Run[];

/** Widths of words at size 1, measured once per document (minutes repeat their words). */
function measurer() {
  const widths = new Map<PDFFont, Map<string, number>>();
  return (font: PDFFont, text: string, size: number) => {
    let known = widths.get(font);
    if (!known) widths.set(font, (known = new Map()));
    let width = known.get(text);
    if (width === undefined) known.set(text, (width = font.widthOfTextAtSize(text, 1)));
    return width * size;
  };
}
type Measure = ReturnType<typeof measurer>;

/** Words, runs of spaces, line breaks; a no-break space stays inside its word. */
const PARTS = /\n|[^\S\n\u00a0\u202f]+|(?:[^\s]|[\u00a0\u202f])+/g;
const SPACE = /^[^\S\n\u00a0\u202f]/;

/**
 * Styled text in lines no wider than `width`: words as they fit, a word too long for a line
 * broken between characters, a "\n" a line break. Always at least one line.
 */
function wrapSpans(spans: readonly Span[], size: number, width: number, styles: Styles, measure: Measure) {
  const lines: Line[] = [];
  let line: Line = [];
  let x = 0;
  let space: PDFFont | null = null;
  const flush = () => {
    lines.push(line);
    line = [];
    x = 0;
    space = null;
  };
  const add = (text: string, font: PDFFont, w: number) => {
    const last = line.at(-1);
    if (last && last.font === font) last.text += text;
    else line.push({ text, font, dx: x });
    x += w;
  };
  for (const span of spans) {
    const font = fontOf(styles, span);
    for (const [part] of span.text.replace(/\r\n?/g, '\n').matchAll(PARTS)) {
      if (part === '\n') {
        flush();
      } else if (SPACE.test(part)) {
        if (line.length > 0) space = font;
      } else {
        const word = styles.clean(part);
        if (word === '') continue;
        const w = measure(font, word, size);
        const gap = space && line.length > 0 ? measure(space, ' ', size) : 0;
        if (line.length > 0 && x + gap + w > width) flush();
        else if (space && gap > 0) add(' ', space, gap);
        space = null;
        if (w <= width) {
          add(word, font, w);
          continue;
        }
        for (const char of word) {
          const cw = measure(font, char, size);
          if (line.length > 0 && x + cw > width) flush();
          add(char, font, cw);
        }
      }
    }
  }
  if (line.length > 0 || lines.length === 0) flush();
  return lines;
}

export const plain = (text: string, bold = false): Span[] => [{ text, bold, italic: false }];

// -- Flow --------------------------------------------------------------------------------------

const BOTTOM = 56;
const LINE = 1.4;
const FRAME_PAD = 7;
const FRAME_INSET = 12;
const LABEL_WIDTH = 112;
export const INDENT = 18;
const TEXT_GRAY = grayscale(0.12);

/** One line on a page. */
export interface Item {
  x: number;
  size: number;
  line: Line;
  color: ReturnType<typeof grayscale>;
  /** "•" or "3." before the line, right-aligned to the gap left of `x`. */
  marker?: Run;
  /** Space above, left out at the top of a page. */
  gap: number;
  /** Must stand on the page of the item after it (a heading and its first lines). */
  keep: boolean;
  /** Starts a new page (the signatures). */
  newPage?: boolean;
  /** The resolution whose frame holds the line. */
  frame?: number;
  page: number;
  top: number;
}

export const heightOf = (item: Item) => item.size * LINE;

export interface BlockOptions {
  x?: number;
  size: number;
  gap: number;
  color?: ReturnType<typeof grayscale>;
  marker?: string;
  /** A heading: keeps itself and the next block's first line with the lines after it. */
  heading?: boolean;
  newPage?: boolean;
}

export class Flow {
  readonly items: Item[] = [];
  private afterHeading = false;
  /** Frame edges just before the next line (0 to 2): its gap keeps their padding clear. */
  private pads = 0;
  private frame: number | undefined;
  private frames = 0;
  readonly measure = measurer();

  constructor(readonly styles: Styles) {}

  /** The left edge and width of text at `x` (inside a frame: inset on both sides). */
  private box(x: number) {
    const inset = this.frame === undefined ? 0 : FRAME_INSET;
    return { x: x + inset, width: RIGHT - inset - x - inset };
  }

  block(spans: readonly Span[], options: BlockOptions): void {
    const { x, width } = this.box(options.x ?? LEFT);
    const lines = wrapSpans(spans, options.size, width, this.styles, this.measure);
    this.lines(lines, x, options);
  }

  /** "Label" in bold and the value in a column beside it. */
  labelled(label: string, value: string, options: BlockOptions): void {
    const { x, width } = this.box(options.x ?? LEFT);
    const { size } = options;
    const lines = wrapSpans(plain(value), size, width - LABEL_WIDTH, this.styles, this.measure);
    for (const line of lines) for (const run of line) run.dx += LABEL_WIDTH;
    lines[0]!.unshift({ text: this.styles.clean(label), font: this.styles.base.bold, dx: 0 });
    this.lines(lines, x, options);
  }

  private lines(lines: Line[], x: number, options: BlockOptions): void {
    const keepFirst = options.heading ? lines.length : this.afterHeading ? Math.min(1, lines.length - 1) : 0;
    const first = this.items.length;
    lines.forEach((line, index) => {
      this.items.push({
        x,
        size: options.size,
        line,
        color: options.color ?? TEXT_GRAY,
        gap: index === 0 ? options.gap + this.pads * FRAME_PAD : 0,
        keep: index < keepFirst,
        ...(index === 0 && options.newPage ? { newPage: true } : {}),
        ...(this.frame === undefined ? {} : { frame: this.frame }),
        page: 0,
        top: 0,
      });
    });
    if (options.marker !== undefined) {
      const font = this.styles.base.regular;
      const marker = this.styles.clean(options.marker);
      this.items[first]!.marker = { text: marker, font, dx: -5 - this.measure(font, marker, options.size) };
    }
    this.afterHeading = options.heading === true;
    this.pads = 0;
  }

  /** Lines added in `draw` stand in one frame, with room above and below it. */
  framed(draw: () => void): void {
    this.frame = this.frames++;
    this.pads += 1;
    draw();
    this.frame = undefined;
    this.pads += 1;
  }

  /** Gives each item its page and position; answers the number of pages. */
  paginate(): number {
    let page = 0;
    let y = TOP;
    let atTop = true;
    const room = TOP - BOTTOM;
    this.items.forEach((item, index) => {
      if (!atTop && item.newPage) {
        page += 1;
        y = TOP;
        atTop = true;
      }
      if (!atTop) {
        // The item with the lines it must stay with: all on the next page if they do not fit here.
        let need = item.gap + heightOf(item);
        for (let next = index; this.items[next]!.keep && next + 1 < this.items.length; next += 1) {
          const after = this.items[next + 1]!;
          need += after.gap + heightOf(after);
        }
        const own = item.gap + heightOf(item);
        if (y - own < BOTTOM || (y - need < BOTTOM && need <= room)) {
          page += 1;
          y = TOP;
          atTop = true;
        }
      }
      if (!atTop) y -= item.gap;
      item.page = page;
      item.top = y;
      y -= heightOf(item);
      atTop = false;
    });
    return page + 1;
  }
}

// -- Drawing -----------------------------------------------------------------------------------

/** The frame of each resolution, once per page it stands on. */
export function drawFrames(pages: readonly PDFPage[], items: readonly Item[]): void {
  const boxes = new Map<string, { page: number; top: number; bottom: number }>();
  for (const item of items) {
    if (item.frame === undefined) continue;
    const key = `${item.frame}:${item.page}`;
    const box = boxes.get(key) ?? { page: item.page, top: item.top, bottom: item.top };
    box.top = Math.max(box.top, item.top);
    box.bottom = Math.min(box.bottom, item.top - heightOf(item));
    boxes.set(key, box);
  }
  for (const { page, top, bottom } of boxes.values()) {
    pages[page]!.drawRectangle({
      x: LEFT,
      y: bottom - FRAME_PAD,
      width: RIGHT - LEFT,
      height: top - bottom + 2 * FRAME_PAD,
      borderColor: grayscale(0.55),
      borderWidth: 0.8,
    });
  }
}

export function drawItem(page: PDFPage, item: Item): void {
  const y = item.top - item.size;
  const { size, color } = item;
  if (item.marker) {
    const { text, font, dx } = item.marker;
    page.drawText(text, { x: item.x + dx, y, size, font, color });
  }
  for (const run of item.line) {
    page.drawText(run.text, { x: item.x + run.dx, y, size, font: run.font, color });
  }
}
