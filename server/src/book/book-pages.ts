import { grayscale, type PDFPage } from 'pdf-lib';
import { formatBytes } from '@gremienportal/contracts/sizes';
import { BOOK_TEXT, formatClock, formatShortDate, eventWhen } from './book-text.ts';
import { entry, LEFT, RIGHT, textEntries, TOP, type Entry } from './flow.ts';
import type { Fonts } from './text-layout.ts';
import { wrap } from './text-layout.ts';
import type { BookPlan } from './types.ts';

/* The book's own pages: the cover, the contents entries and the entries of "Weitere Unterlagen". */

/** What a contents entry points to: an agenda item or one of its documents. */
export type ContentsTarget = { item: number } | { document: number };

export interface ContentsEntry extends Entry {
  /** What the entry's page number points to; an item's description has none. */
  target?: ContentsTarget;
}

const ITEM_SIZE = 11;
const DOCUMENT_SIZE = 9.5;
const NUMBER_WIDTH = 34;
const SUB_INDENT = 20;

/**
 * One entry per item (number, title, presenter), its description as the agenda has it, and one
 * entry per linked document under it.
 */
export function contentsEntries(plan: BookPlan, fonts: Fonts): ContentsEntry[] {
  return plan.items.flatMap((item, itemIndex) => {
    const x = LEFT + (item.sub ? SUB_INDENT : 0);
    const textX = x + NUMBER_WIDTH;
    const font = item.sub ? fonts.regular : fonts.bold;
    const head: ContentsEntry = {
      ...entry(fonts, {
        x,
        textX,
        number: item.number,
        text: item.title,
        ...(item.presenter ? { note: BOOK_TEXT.presenter(item.presenter) } : {}),
        font,
        size: ITEM_SIZE,
        gap: item.sub ? 5 : 11,
        pageNumber: true,
      }),
      target: { item: itemIndex },
    };
    const description = item.description.trim()
      ? textEntries(fonts, {
          x: textX,
          textX,
          text: item.description,
          font: fonts.regular,
          size: DOCUMENT_SIZE,
          color: grayscale(0.25),
          gap: 3,
        })
      : [];
    const motions = (item.motions ?? []).flatMap((motion) =>
      textEntries(fonts, {
        x: textX,
        textX,
        text: `${BOOK_TEXT.motion(motion.title)} ${motion.text}`,
        font: fonts.regular,
        size: DOCUMENT_SIZE,
        color: grayscale(0.15),
        gap: 3,
      }),
    );
    const documents = item.documents.map((documentIndex): ContentsEntry => {
      const document = plan.documents[documentIndex]!;
      const kind = document.format === 'pdf' ? '' : ` (${document.format.toUpperCase()})`;
      return {
        ...entry(fonts, {
          x: textX,
          textX: textX + 10,
          number: '•',
          text: `${document.title}${kind}`,
          font: fonts.regular,
          size: DOCUMENT_SIZE,
          color: grayscale(0.2),
          gap: 2,
          pageNumber: true,
        }),
        target: { document: documentIndex },
      };
    });
    return [head, ...description, ...motions, ...documents];
  });
}

/** Why a document of "Weitere Unterlagen" is there: not a PDF, or a PDF that could not be inserted. */
export type Listed = 'other' | 'failed';

export interface FurtherEntry extends Entry {
  /** The document a line names; absent for the intro and item headings. */
  document?: number;
}

/** The intro, then per agenda item its heading and its documents that are not in the book. */
export function furtherEntries(
  plan: BookPlan,
  fonts: Fonts,
  listed: ReadonlyMap<number, Listed>,
): FurtherEntry[] {
  const entries: FurtherEntry[] = [
    entry(fonts, {
      x: LEFT,
      textX: LEFT,
      text: BOOK_TEXT.furtherIntro,
      font: fonts.regular,
      size: 10,
      color: grayscale(0.3),
      gap: 0,
      pageNumber: false,
    }),
  ];
  for (const item of plan.items) {
    const documents = item.documents.filter((index) => listed.has(index));
    if (documents.length === 0) continue;
    entries.push(
      entry(fonts, {
        x: LEFT,
        textX: LEFT,
        text: BOOK_TEXT.item(item.number, item.title),
        font: fonts.bold,
        size: 11,
        gap: 14,
        pageNumber: false,
      }),
    );
    for (const index of documents) {
      const document = plan.documents[index]!;
      const what =
        listed.get(index) === 'failed'
          ? `(PDF) – ${BOOK_TEXT.notInserted}`
          : `(${document.format.toUpperCase()}, ${formatBytes(document.sizeBytes)})`;
      entries.push({
        ...entry(fonts, {
          x: LEFT + 8,
          textX: LEFT + 20,
          number: '•',
          text: `${document.title} ${what}`,
          font: fonts.regular,
          size: 10,
          gap: 3,
          pageNumber: false,
        }),
        document: index,
      });
    }
  }
  return entries;
}

/** Label and value under each other, as the cover lists date, time and place. */
function coverField(page: PDFPage, fonts: Fonts, label: string, value: string, top: number): number {
  page.drawText(label, { x: LEFT, y: top - 9, size: 9, font: fonts.regular, color: grayscale(0.4) });
  const lines = wrap(fonts.clean(value), fonts.regular, 13, RIGHT - LEFT, 3);
  lines.forEach((line, index) => {
    page.drawText(line, { x: LEFT, y: top - 27 - index * 17, size: 13, font: fonts.regular });
  });
  return top - 27 - (lines.length - 1) * 17 - 22;
}

/** The cover: title, date, time and place of the meeting, what the book holds and for whom. */
export function drawCover(
  page: PDFPage,
  fonts: Fonts,
  plan: BookPlan,
  summary: { inserted: number; pages: number; further: number },
): void {
  page.drawText(BOOK_TEXT.heading, {
    x: LEFT,
    y: TOP - 12,
    size: 12,
    font: fonts.bold,
    color: grayscale(0.4),
  });
  const titleLines = wrap(fonts.clean(plan.event.title), fonts.bold, 24, RIGHT - LEFT, 5);
  titleLines.forEach((line, index) => {
    page.drawText(line, { x: LEFT, y: TOP - 60 - index * 30, size: 24, font: fonts.bold });
  });
  let y = TOP - 60 - (titleLines.length - 1) * 30 - 40;
  page.drawLine({
    start: { x: LEFT, y },
    end: { x: RIGHT, y },
    thickness: 0.8,
    color: grayscale(0.6),
  });
  y -= 20;
  const when = eventWhen(plan.event.start, plan.event.end, plan.timeZone);
  y = coverField(page, fonts, BOOK_TEXT.date, when.date, y);
  y = coverField(page, fonts, BOOK_TEXT.time, when.time, y);
  if (plan.event.location.trim() !== '') y = coverField(page, fonts, BOOK_TEXT.place, plan.event.location, y);
  const facts = BOOK_TEXT.summary(plan.items.length, summary.inserted, summary.pages, summary.further);
  wrap(fonts.clean(facts), fonts.regular, 10, RIGHT - LEFT).forEach((line, index) => {
    page.drawText(line, { x: LEFT, y: y - 14 - index * 14, size: 10, font: fonts.regular });
  });
  const created = BOOK_TEXT.createdFor(
    plan.reader,
    formatShortDate(plan.createdAt, plan.timeZone),
    formatClock(plan.createdAt, plan.timeZone),
  );
  const note = wrap(fonts.clean(created), fonts.regular, 9, RIGHT - LEFT, 4);
  note.forEach((line, index) => {
    page.drawText(line, {
      x: LEFT,
      y: 84 + (note.length - 1 - index) * 12,
      size: 9,
      font: fonts.regular,
      color: grayscale(0.35),
    });
  });
}
