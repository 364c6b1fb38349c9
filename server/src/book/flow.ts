import { grayscale, type PDFDocument, type PDFFont, type PDFPage, type PDFRef } from 'pdf-lib';
import type { Fonts } from './text-layout.ts';
import { truncate, wrap } from './text-layout.ts';

/*
 * The book's own A4 pages of flowing entries (the contents and "Weitere Unterlagen"): entries are
 * measured and given their page before anything is drawn, so the number of contents pages is known
 * before the documents follow them, and page numbers are filled in once the documents are placed.
 */

export const A4: [number, number] = [595.28, 841.89];
export const LEFT = 56;
export const RIGHT = A4[0] - 56;
export const TOP = A4[1] - 64;
const BOTTOM = 44;
const HEADING_SIZE = 18;
const HEADING_ROOM = 36;
const PAGE_NUMBER_WIDTH = 34;

/** One entry: lines of text in one font, an optional number in front and page number behind. */
export interface Entry {
  /** Left edge of the entry (its number, or its text without one). */
  x: number;
  /** Left edge of the text lines. */
  textX: number;
  number?: string;
  lines: string[];
  /** A smaller grey line under the text (the presenter). */
  note?: string;
  font: PDFFont;
  size: number;
  color?: ReturnType<typeof grayscale>;
  /** Space above the entry, left out at the top of a page. */
  gap: number;
  /** Set by `paginate`: the page within the flow and the top of the entry on it. */
  page: number;
  top: number;
}

const lineHeight = (entry: Pick<Entry, 'size'>) => entry.size * 1.35;
const heightOf = (entry: Entry) => (entry.lines.length + (entry.note ? 0.85 : 0)) * lineHeight(entry);

/** The width text may take beside a page number column. */
export const textWidth = (textX: number, withPageNumber: boolean) =>
  RIGHT - textX - (withPageNumber ? PAGE_NUMBER_WIDTH + 12 : 0);

/** An entry wrapped to its width (at most four lines; titles are short). */
export function entry(
  fonts: Fonts,
  options: Omit<Entry, 'lines' | 'page' | 'top' | 'note'> & {
    text: string;
    note?: string;
    pageNumber: boolean;
  },
): Entry {
  const { text, note, pageNumber, ...rest } = options;
  const width = textWidth(rest.textX, pageNumber);
  const noteText = note ? truncate(fonts.clean(note), fonts.regular, rest.size * 0.85, width) : undefined;
  return {
    ...rest,
    lines: wrap(fonts.clean(text), rest.font, rest.size, width, 4),
    ...(noteText ? { note: noteText } : {}),
    page: 0,
    top: 0,
  };
}

/** Lines of a longer text in one entry at most: a page may break between such pieces. */
const LINES_PER_PIECE = 6;

/**
 * A longer text (an item's description, with its line breaks) as entries of a few lines each, so
 * that a long one continues on the next page instead of running off this one.
 */
export function textEntries(
  fonts: Fonts,
  options: Omit<Entry, 'lines' | 'page' | 'top' | 'note' | 'number'> & { text: string },
): Entry[] {
  const { text, ...rest } = options;
  const width = textWidth(rest.textX, false);
  const lines = text
    .trim()
    .split(/\r?\n/)
    .flatMap((paragraph) => wrap(fonts.clean(paragraph.trim()), rest.font, rest.size, width));
  const pieces: Entry[] = [];
  for (let start = 0; start < lines.length; start += LINES_PER_PIECE) {
    pieces.push({
      ...rest,
      lines: lines.slice(start, start + LINES_PER_PIECE),
      gap: start === 0 ? rest.gap : 0,
      page: 0,
      top: 0,
    });
  }
  return pieces;
}

/** Gives every entry its page and position; answers the number of pages (at least one). */
export function paginate(entries: readonly Entry[]): number {
  let page = 0;
  let y = TOP - HEADING_ROOM;
  let atTop = true;
  for (const item of entries) {
    const height = heightOf(item);
    if (!atTop && y - item.gap - height < BOTTOM) {
      page += 1;
      y = TOP - HEADING_ROOM;
      atTop = true;
    }
    if (!atTop) y -= item.gap;
    item.page = page;
    item.top = y;
    y -= height;
    atTop = false;
  }
  return page + 1;
}

/** The heading at the top of a flow page: its title, or "… (Fortsetzung)" after the first. */
export function drawHeading(page: PDFPage, fonts: Fonts, text: string): void {
  page.drawText(truncate(text, fonts.bold, HEADING_SIZE, RIGHT - LEFT), {
    x: LEFT,
    y: TOP - HEADING_SIZE,
    size: HEADING_SIZE,
    font: fonts.bold,
  });
}

/** Dots from `from` to `to` at the baseline, as a contents page leads the eye to the number. */
function leader(page: PDFPage, fonts: Fonts, size: number, from: number, to: number, y: number) {
  const dot = ' .';
  const width = fonts.regular.widthOfTextAtSize(dot, size);
  const count = Math.floor((to - from) / width);
  if (count < 2) return;
  page.drawText(dot.repeat(count), {
    x: to - count * width,
    y,
    size,
    font: fonts.regular,
    color: grayscale(0.55),
  });
}

/**
 * Draws an entry on its page; with `target` also its page number (right, after a leader) and a
 * link over the whole entry to that page.
 */
export function drawEntry(
  doc: PDFDocument,
  page: PDFPage,
  fonts: Fonts,
  item: Entry,
  target?: { index: number; ref: PDFRef },
): void {
  const step = lineHeight(item);
  const color = item.color ?? grayscale(0);
  const first = item.top - item.size;
  if (item.number) {
    page.drawText(item.number, { x: item.x, y: first, size: item.size, font: item.font, color });
  }
  item.lines.forEach((line, index) => {
    page.drawText(line, { x: item.textX, y: first - index * step, size: item.size, font: item.font, color });
  });
  const last = first - (item.lines.length - 1) * step;
  if (target) drawTarget(doc, page, fonts, item, target, last);
  if (item.note) {
    page.drawText(item.note, {
      x: item.textX,
      y: last - step * 0.85,
      size: item.size * 0.85,
      font: fonts.regular,
      color: grayscale(0.4),
    });
  }
}

/** The page number after a leader on the entry's last line, and a link over the whole entry. */
function drawTarget(
  doc: PDFDocument,
  page: PDFPage,
  fonts: Fonts,
  item: Entry,
  target: { index: number; ref: PDFRef },
  last: number,
): void {
  const color = item.color ?? grayscale(0);
  const label = String(target.index + 1);
  const labelWidth = fonts.regular.widthOfTextAtSize(label, item.size);
  const lineEnd = item.textX + item.font.widthOfTextAtSize(item.lines.at(-1)!, item.size);
  leader(page, fonts, item.size, lineEnd + 4, RIGHT - labelWidth - 4, last);
  page.drawText(label, { x: RIGHT - labelWidth, y: last, size: item.size, font: fonts.regular, color });
  const link = doc.context.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: [item.x - 2, item.top - heightOf(item), RIGHT + 2, item.top + 2],
    Border: [0, 0, 0],
    Dest: [target.ref, 'Fit'],
  });
  page.node.addAnnot(doc.context.register(link));
}
