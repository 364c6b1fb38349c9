import { PDFDocument, type PDFPage } from 'pdf-lib';
import { contentsEntries, drawCover, furtherEntries, type Listed } from './book-pages.ts';
import { BOOK_TEXT, formatShortDate } from './book-text.ts';
import { A4, drawEntry, drawHeading, LEFT, paginate, TOP } from './flow.ts';
import { addOutline, type Bookmark } from './outline.ts';
import { drawDivider, drawFooter } from './page-marks.ts';
import { embedFonts } from './text-layout.ts';
import type { BookPlan, BookSource, ComposeLimits } from './types.ts';

export interface ComposedBook {
  doc: PDFDocument;
  pages: number;
  /** Indexes of the documents whose pages are in the book. */
  inserted: number[];
}

/**
 * Copies all pages of one PDF behind the book's pages; null when it cannot be read (damaged,
 * encrypted, empty) or has more pages than `room`. The source is parsed, copied and let go.
 */
async function insertPdf(doc: PDFDocument, source: BookSource, room: number): Promise<PDFPage[] | null> {
  if (!('bytes' in source)) return null;
  try {
    const donor = await PDFDocument.load(source.bytes, { updateMetadata: false });
    const count = donor.getPageCount();
    if (count === 0 || count > room) return null;
    const copied = await doc.copyPages(donor, donor.getPageIndices());
    for (const page of copied) doc.addPage(page);
    return copied;
  } catch {
    return null;
  }
}

/**
 * The Sitzungsmappe as a pdf-lib document (decision 130): cover, contents with page numbers and
 * links, every PDF of `plan` read through `read` one at a time, "Weitere Unterlagen" for the rest,
 * bookmarks, and the reader's footer on every page. Pages: cover + contents + the inserted PDFs'
 * pages + "Weitere Unterlagen" if anything is listed there; nothing else adds a page.
 */
export async function composeBook(
  plan: BookPlan,
  limits: ComposeLimits,
  read: (index: number) => Promise<BookSource>,
): Promise<ComposedBook> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`${BOOK_TEXT.heading} – ${plan.event.title}`);
  doc.setLanguage('de-DE');
  doc.setCreator('Gremienportal');
  doc.setProducer('Gremienportal');
  doc.setCreationDate(new Date(plan.createdAt));
  const fonts = await embedFonts(doc);

  const cover = doc.addPage(A4);
  const contents = contentsEntries(plan, fonts);
  const contentsPages = Array.from({ length: paginate(contents) }, () => doc.addPage(A4));

  const firstPage = new Map<number, number>();
  const listed = new Map<number, Listed>();
  const skip = new Set(limits.skip);
  let insertedPages = 0;
  for (const [index, document] of plan.documents.entries()) {
    if (document.format !== 'pdf') {
      listed.set(index, 'other');
      continue;
    }
    const start = doc.getPageCount();
    const copied = skip.has(index)
      ? null
      : await insertPdf(doc, await read(index), limits.maxPages - insertedPages);
    if (!copied) {
      listed.set(index, 'failed');
      continue;
    }
    firstPage.set(index, start);
    insertedPages += copied.length;
    const item = plan.items.find((candidate) => candidate.documents.includes(index))!;
    drawDivider(
      copied[0]!,
      fonts,
      fonts.clean(BOOK_TEXT.item(item.number, item.title)),
      fonts.clean(document.title),
    );
  }

  const further = listed.size > 0 ? furtherEntries(plan, fonts, listed) : [];
  const furtherPages =
    further.length > 0 ? Array.from({ length: paginate(further) }, () => doc.addPage(A4)) : [];
  const pages = doc.getPages();
  const furtherStart = pages.length - furtherPages.length;
  const furtherPage = new Map<number, number>();
  for (const line of further) {
    if (line.document !== undefined && !furtherPage.has(line.document)) {
      furtherPage.set(line.document, furtherStart + line.page);
    }
  }
  const documentPage = (index: number) => firstPage.get(index) ?? furtherPage.get(index)!;
  const itemPage = (index: number): number | undefined => {
    const documents = plan.items[index]!.documents;
    return (
      documents.map((d) => firstPage.get(d)).find((page) => page !== undefined) ??
      documents.map(documentPage)[0]
    );
  };
  const target = (index: number | undefined) =>
    index === undefined ? undefined : { index, ref: pages[index]!.ref };

  drawCover(cover, fonts, plan, { inserted: firstPage.size, pages: insertedPages, further: listed.size });
  contentsPages.forEach((page, index) =>
    drawHeading(page, fonts, index === 0 ? BOOK_TEXT.contents : BOOK_TEXT.contentsContinued),
  );
  if (plan.items.length === 0) {
    contentsPages[0]!.drawText(BOOK_TEXT.noAgenda, { x: LEFT, y: TOP - 60, size: 11, font: fonts.regular });
  }
  for (const line of contents) {
    const page = !line.target
      ? undefined
      : 'item' in line.target
        ? itemPage(line.target.item)
        : documentPage(line.target.document);
    drawEntry(doc, contentsPages[line.page]!, fonts, line, target(page));
  }
  furtherPages.forEach((page, index) =>
    drawHeading(page, fonts, index === 0 ? BOOK_TEXT.further : BOOK_TEXT.furtherContinued),
  );
  for (const line of further) drawEntry(doc, furtherPages[line.page]!, fonts, line);

  addOutline(
    doc,
    bookmarks(plan, pages, {
      contents,
      itemPage,
      documentPage,
      furtherStart: furtherPages.length > 0 ? furtherStart : undefined,
    }),
  );
  const footer = BOOK_TEXT.footer(fonts.clean(plan.reader), formatShortDate(plan.createdAt, plan.timeZone));
  pages.forEach((page, index) =>
    drawFooter(page, fonts, `${footer} · ${BOOK_TEXT.pageOf(index + 1, pages.length)}`),
  );
  return { doc, pages: pages.length, inserted: [...firstPage.keys()] };
}

/** Cover, contents, each main item with its documents and sub-items, "Weitere Unterlagen". */
function bookmarks(
  plan: BookPlan,
  pages: readonly PDFPage[],
  at: {
    contents: ReturnType<typeof contentsEntries>;
    itemPage(index: number): number | undefined;
    documentPage(index: number): number;
    furtherStart: number | undefined;
  },
): Bookmark[] {
  const ref = (index: number) => pages[index]!.ref;
  // An item without documents points to its line in the contents.
  const contentsPageOf = (index: number) =>
    1 + at.contents.find((line) => line.target && 'item' in line.target && line.target.item === index)!.page;
  const documentMarks = (indexes: readonly number[]): Bookmark[] =>
    indexes.map((d) => ({ title: plan.documents[d]!.title, page: ref(at.documentPage(d)), children: [] }));
  const itemMark = (index: number, children: Bookmark[]): Bookmark => {
    const item = plan.items[index]!;
    return {
      title: `${item.number} ${item.title}`,
      page: ref(at.itemPage(index) ?? contentsPageOf(index)),
      children: [...documentMarks(item.documents), ...children],
    };
  };
  const items: Bookmark[] = [];
  plan.items.forEach((item, index) => {
    if (item.sub) return;
    const subs: Bookmark[] = [];
    for (let next = index + 1; plan.items[next]?.sub; next += 1) subs.push(itemMark(next, []));
    items.push(itemMark(index, subs));
  });
  return [
    { title: BOOK_TEXT.cover, page: ref(0), children: [] },
    { title: BOOK_TEXT.contents, page: ref(1), children: [] },
    ...items,
    ...(at.furtherStart === undefined
      ? []
      : [{ title: BOOK_TEXT.further, page: ref(at.furtherStart), children: [] }]),
  ];
}
